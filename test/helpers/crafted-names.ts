/**
 * Repository names crafted to be read as paths: seeded combinations of `/`,
 * `..`, `.`, percent-encoded dots and slashes, backslashes and absolute paths,
 * for the checks that a catalog name is a logical name and never a path.
 */
import { mulberry32 } from './mulberry32.js';

/** The pieces a crafted name is made of (`extra`: e.g. the absolute path of a real repository on the host). */
export function craftedPieces(extra: readonly string[] = []): string[] {
  return ['/', '..', '.', '%2e', '%2E%2E', '%2f', '%2F', '%252f', '\\', '..\\', '//', '~', ' ', '\0', 'srv', 'git', 'other.git', 'alpha-app', 'etc', ...extra];
}

/** `count` names from `seed`: each 1-5 pieces joined by nothing or by `/`. */
export function craftedNames(seed: number, count: number, extra: readonly string[] = []): string[] {
  const random = mulberry32(seed);
  const pieces = craftedPieces(extra);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = Array.from({ length: 1 + Math.floor(random() * 5) }, () => pieces[Math.floor(random() * pieces.length)]);
    names.push(parts.join(random() < 0.5 ? '' : '/'));
  }
  return names;
}

/** True when `name` holds a piece that makes it a path rather than a logical name (what the catalog must refuse). */
export function looksLikePath(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.endsWith('/') || name.includes('//')) return true;
  if (/[\\%~\s\0]/.test(name)) return true;
  return name.split('/').some((segment) => segment === '.' || segment === '..' || !/^[A-Za-z0-9]/.test(segment));
}
