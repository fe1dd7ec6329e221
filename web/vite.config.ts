/**
 * Builds the web view's front end (web/) into dist/web-ui/, which `reponav ui`
 * serves from the installed package. Run with `npm run build:web`. This config
 * lives in web/ so the root vitest.config.ts stays the only test config.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  // Relative asset URLs: the server may be reached under any host and port.
  base: './',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: here('../dist/web-ui'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // One small bundle; nothing is fetched from elsewhere at run time.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
