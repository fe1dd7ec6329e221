import type { CliOutput } from './cli-io.js';

/**
 * A progress bar on stderr: redrawn in place on a TTY (with rate and ETA),
 * silent otherwise so logs and pipes stay clean.
 */
export interface ProgressBar {
  update(done: number, total: number): void;
  finish(): void;
}

/** Creates a bar labelled `unit` ("files", "instances") on `stream`, a run's stderr. */
export function createProgressBar(unit: string, stream: CliOutput): ProgressBar {
  const started = Date.now();
  let lastDraw = 0;
  let drawn = false;
  if (!stream.isTTY) return { update() {}, finish() {} };
  return {
    update(done, total) {
      const now = Date.now();
      if (now - lastDraw < 80 && done < total) return;
      lastDraw = now;
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const eta = rate > 0 ? Math.max(0, (total - done) / rate) : 0;
      const width = 24;
      const filled = total > 0 ? Math.round((done / total) * width) : width;
      const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
      stream.write(`\r[${bar}] ${done}/${total} ${unit}  ${rate.toFixed(0)} ${unit}/s  ETA ${eta.toFixed(0)}s `);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
