/**
 * Whether the browser tests can run: they drive Debian's Chromium (never a
 * downloaded browser). Kept free of other imports so vitest's global setup can
 * ask cheaply.
 */
import { existsSync } from 'node:fs';

/** Where Chromium comes from: Debian's package (apt-get install chromium), or $REPONAV_CHROMIUM. */
export const CHROMIUM = process.env.REPONAV_CHROMIUM ?? '/usr/bin/chromium';

/** Null when Chromium is there; else one line saying what to install. */
export function chromiumProblem(): string | null {
  if (existsSync(CHROMIUM)) return null;
  return `browser tests skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install -y chromium\` (Debian/Ubuntu) or set REPONAV_CHROMIUM to a Chromium binary.`;
}

/** True when a missing browser must fail the run instead of skipping (CI sets REPONAV_REQUIRE_BROWSER=1). */
export function browserRequired(): boolean {
  return process.env.REPONAV_REQUIRE_BROWSER === '1';
}
