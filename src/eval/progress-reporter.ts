/**
 * Progress line for long evaluation runs, written to stderr (never stdout). On a
 * TTY one bar is redrawn in place; otherwise (logs, CI) a plain line is written
 * at most every `intervalMs`, plus the first and the last.
 */

/** Where a run stands. `done` and `total` count the instances this run has to process. */
export interface ProgressState {
  /** Instances finished in this run (predicted or skipped). */
  done: number;
  /** Instances this run has to process (excludes those resumed from an earlier run). */
  total: number;
  /** Of `done`, how many were skipped. */
  skipped: number;
  /** The instance being worked on, if any. */
  current?: string;
}

/** Receives progress; `finish` ends the line (TTY) and writes a final line. */
export interface ProgressReporter {
  update(state: ProgressState): void;
  finish(state: ProgressState): void;
}

/** The minimum a progress destination must offer (process.stderr qualifies). */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Options of {@link createProgressReporter}. */
export interface ProgressReporterOptions {
  stream: ProgressStream;
  /** Force TTY (redraw) or plain mode; default `stream.isTTY`. */
  tty?: boolean;
  /** Minimum time between plain lines, ms (default 10 000). */
  intervalMs?: number;
  /** Clock, for tests (default Date.now). */
  now?: () => number;
}

/** Formats milliseconds as `1h02m`, `3m20s` or `42s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** A progress reporter that writes nothing (library default). */
export const silentProgress: ProgressReporter = { update() {}, finish() {} };

/** Creates a stderr-style progress reporter; see the module comment for the two modes. */
export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const tty = options.tty ?? options.stream.isTTY === true;
  const intervalMs = options.intervalMs ?? 10_000;
  const startedAt = now();
  let lastPlainAt = Number.NEGATIVE_INFINITY;
  let lastDone = -1;

  const describe = (state: ProgressState): string => {
    const elapsed = now() - startedAt;
    const pct = state.total > 0 ? Math.floor((100 * state.done) / state.total) : 100;
    // ETA from this run's own pace, so resumed instances do not distort it.
    const perInstance = state.done > 0 ? elapsed / state.done : NaN;
    const eta = state.done > 0 ? formatDuration(perInstance * (state.total - state.done)) : '?';
    const skipped = state.skipped > 0 ? ` (${state.skipped} skipped)` : '';
    const pace = state.done > 0 ? ` · ${perInstance < 1000 ? `${Math.round(perInstance)}ms` : `${(perInstance / 1000).toFixed(1)}s`}/inst` : '';
    return `${state.done}/${state.total}${skipped} ${pct}% · elapsed ${formatDuration(elapsed)}${pace} · ETA ${eta}`;
  };

  if (tty) {
    const draw = (state: ProgressState): void => {
      const width = 24;
      const filled = state.total > 0 ? Math.round((width * state.done) / state.total) : width;
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
      let line = `${bar} ${describe(state)}${state.current ? ` · ${state.current}` : ''}`;
      const columns = options.stream.columns;
      if (columns && line.length > columns - 1) line = line.slice(0, columns - 1);
      options.stream.write(`\r${line}\x1b[K`);
    };
    return {
      update: draw,
      finish(state) {
        draw({ ...state, current: undefined });
        options.stream.write('\n');
      },
    };
  }

  return {
    update(state) {
      // Plain mode: one line per interval, and only when something finished.
      if (state.done === lastDone) return;
      const at = now();
      if (state.done > 0 && state.done < state.total && at - lastPlainAt < intervalMs) return;
      lastPlainAt = at;
      lastDone = state.done;
      options.stream.write(`[reponav] eval: ${describe(state)}\n`);
    },
    finish(state) {
      if (state.done !== lastDone) options.stream.write(`[reponav] eval: ${describe(state)}\n`);
      lastDone = state.done;
    },
  };
}
