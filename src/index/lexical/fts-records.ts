/**
 * FTS5's own records of the chunk full-text table, read as FTS5 reads them:
 * the averages record (N, its rows, and the token totals per column, from
 * which BM25's average |D| comes: one small blob, so reading N here costs
 * ~0.1 ms where `count(*)` walks the table, 5-9 ms on a 115k-chunk index) and
 * the docsize rows (each row's |D|).
 */
import type Database from 'better-sqlite3';
import { FTS_FIELDS } from '../store/index.js';

const FIELD_COUNT = FTS_FIELDS.length;

/** FTS5's N and average |D| (from the table's averages record). */
export function readAverages(db: Database.Database): { rows: number; avgdl: number } {
  const averages = db.prepare('SELECT block FROM chunks_fts_data WHERE id = 1').pluck().get() as Buffer | undefined;
  const totals = averages ? readVarints(averages, 1 + FIELD_COUNT) : [0];
  const rows = totals[0]!;
  let tokens = 0;
  for (let c = 1; c < totals.length; c++) tokens += totals[c]!;
  return { rows, avgdl: tokens / rows };
}

/** SQLite varints (FTS5's record format): `count` of them from the start of `blob`. */
function readVarints(blob: Uint8Array, count: number): number[] {
  const out: number[] = [];
  let i = 0;
  while (out.length < count && i < blob.length) {
    let value = 0;
    for (let k = 0; k < 9 && i < blob.length; k++) {
      const byte = blob[i++]!;
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    out.push(value);
  }
  while (out.length < count) out.push(0);
  return out;
}


/**
 * `<id> <hex of sz>` pairs (space-separated) → each row's id and |D|, the sum
 * of its FIELD_COUNT varints (as {@link readVarints} reads them). One tight
 * pass over the string: a split and a byte array per row cost ~10× more before
 * the JIT warms up, and this runs once per process.
 */
export function parseDocsizes(text: string): { ids: number[]; lengths: number[] } {
  const ids: number[] = [];
  const lengths: number[] = [];
  let i = 0;
  const end = text.length;
  while (i < end) {
    let id = 0;
    for (; i < end && text.charCodeAt(i) !== 32; i++) id = id * 10 + (text.charCodeAt(i) - 48);
    i++;
    let length = 0;
    let value = 0;
    let k = 0;
    let read = 0;
    for (; i < end; i += 2) {
      const c1 = text.charCodeAt(i);
      if (c1 === 32) break;
      const byte = hexDigit(c1) * 16 + hexDigit(text.charCodeAt(i + 1));
      if (read >= FIELD_COUNT) continue;
      if (k === 8) {
        value = value * 256 + byte;
        k = 9;
      } else {
        value = value * 128 + (byte & 0x7f);
        k = (byte & 0x80) === 0 ? 9 : k + 1;
      }
      if (k === 9) {
        length += value;
        read++;
        value = 0;
        k = 0;
      }
    }
    // A varint cut short by the end of the blob counts as read so far (readVarints does the same).
    if (k > 0 && read < FIELD_COUNT) length += value;
    i++;
    ids.push(id);
    lengths.push(length);
  }
  return { ids, lengths };
}

function hexDigit(code: number): number {
  return code <= 57 ? code - 48 : (code | 0x20) - 87;
}
