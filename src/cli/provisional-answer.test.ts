import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastBackgroundFailure, reserveErrorLog } from './provisional-answer.js';

describe('the last background build failure', () => {
  let dir: string;
  let indexPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reponav-bg-'));
    indexPath = join(dir, 'index.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is none when no build was started, or while the build runs', () => {
    expect(lastBackgroundFailure(indexPath)).toBeNull();
    reserveErrorLog(indexPath, process.pid);
    expect(lastBackgroundFailure(indexPath)).toBeNull();
  });

  it('is the error line the build wrote over its reserved log', () => {
    reserveErrorLog(indexPath, 999_999_999);
    const log = `${indexPath}.background-error`;
    // The build's stderr starts at offset 0 of the reserved file: no new space is needed to say why it failed.
    const fd = openSync(log, 'r+');
    writeSync(fd, 'error: The disk holding the index is full\n', 0);
    closeSync(fd);
    expect(lastBackgroundFailure(indexPath)).toBe('The disk holding the index is full');
  });

  it('is known even when the build could write nothing: it ended (its process is gone) without finishing', () => {
    reserveErrorLog(indexPath, 999_999_999);
    expect(lastBackgroundFailure(indexPath)).toMatch(/^the build stopped before finishing and could not write why \(is the disk holding the index full\?\)$/);
    writeFileSync(`${indexPath}.background-error`, '');
    expect(lastBackgroundFailure(indexPath)).toMatch(/^the build stopped before finishing and could not write why/);
  });
});
