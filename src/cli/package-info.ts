import { readFileSync } from 'node:fs';

/** The package version from package.json (two levels above this module in src/ and dist/). */
export function readPackageVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    return (JSON.parse(text) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
