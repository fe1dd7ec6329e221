/**
 * Writing a trace to disk (`--trace FILE`). The document is the AskTrace
 * itself, pretty-printed; parent folders are created.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AskTrace } from './trace-types.js';

/** Writes `trace` as indented JSON to `file` (overwriting it). */
export async function writeAskTrace(file: string, trace: AskTrace): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(trace, null, 2)}\n`, 'utf8');
}
