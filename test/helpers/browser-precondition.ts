/**
 * vitest global setup: says once, in one line, when the browser tests will be
 * skipped for want of Chromium (instead of a stack trace from each of them).
 */
import { browserRequired, chromiumProblem } from '../web/chromium.js';

export default function setup(): void {
  const problem = chromiumProblem();
  if (problem && !browserRequired()) process.stderr.write(`${problem}\n`);
}
