/**
 * Runs a pipeline of programs ourselves (no shell): each stage is spawned in
 * its own process group, stdout flows into the next stage's stdin, and a
 * time limit kills every group. Output is collected up to a cap; past a hard
 * ceiling the pipeline is stopped so a runaway command cannot fill memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import type { StderrMode } from './command-line.js';

/** One program to run. `file` is an absolute path or a name resolved through `env.PATH`. */
export interface ProcessStage {
  file: string;
  /** The name the program sees as argv[0] (and prints in its messages); default `file`. */
  argv0?: string;
  args: string[];
  stderr: StderrMode;
}

/** Options of {@link runPipeline}. */
export interface RunPipelineOptions {
  cwd: string;
  timeoutMs: number;
  /** Characters kept for the observation; the rest is counted, not kept. */
  maxOutputChars: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** What a pipeline did. */
export interface PipelineResult {
  /** The last stage's stdout, cut to the cap. */
  stdout: string;
  /** Shown stderr of all stages, cut to the cap. */
  stderr: string;
  /** Exit code of the last stage (bash semantics without pipefail); null when killed. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** Characters produced in total (stdout + shown stderr), including what was cut. */
  totalChars: number;
  /** True when the hard ceiling stopped the pipeline early. */
  stoppedForSize: boolean;
  durationMs: number;
  /** A spawn failure (program missing), if any. */
  spawnError: string | null;
}

/** Past this many characters of output the pipeline is killed: nothing more would be shown anyway. */
const HARD_CEILING_FACTOR = 50;

class CappedText {
  private kept = '';
  total = 0;
  constructor(private readonly cap: number) {}
  add(chunk: string): void {
    this.total += chunk.length;
    if (this.kept.length < this.cap) this.kept += chunk.slice(0, this.cap - this.kept.length);
  }
  get text(): string {
    return this.kept;
  }
}

/**
 * Runs `stages` as `a | b | c` in `options.cwd` with stdin closed. Resolves
 * when every stage has exited (never rejects for a failing program: a spawn
 * error is reported in `spawnError`). On timeout or abort every process group
 * gets SIGKILL.
 */
export function runPipeline(stages: readonly ProcessStage[], options: RunPipelineOptions): Promise<PipelineResult> {
  const started = performance.now();
  const stdout = new CappedText(options.maxOutputChars);
  const stderr = new CappedText(options.maxOutputChars);
  const hardCeiling = Math.max(1_000_000, options.maxOutputChars * HARD_CEILING_FACTOR);
  let timedOut = false;
  let aborted = false;
  let stoppedForSize = false;
  let spawnError: string | null = null;
  const children: ChildProcess[] = [];

  const killAll = (): void => {
    for (const child of children) {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL'); // the group is gone; make sure the process is too
      }
    }
  };
  const overCeiling = (): void => {
    if (stdout.total + stderr.total > hardCeiling && !stoppedForSize) {
      stoppedForSize = true;
      killAll();
    }
  };

  return new Promise((resolvePromise) => {
    let previous: Readable | null = null;
    let upstreamSources: Readable[] = [];
    const exits: Promise<number | null>[] = [];
    for (const [index, stage] of stages.entries()) {
      const last = index === stages.length - 1;
      const child: ChildProcess = spawn(stage.file, stage.args, {
        cwd: options.cwd,
        env: options.env,
        argv0: stage.argv0,
        // Own process group, so a timeout can kill the program and anything it started.
        detached: true,
        stdio: [previous ? 'pipe' : 'ignore', 'pipe', stage.stderr === 'discard' ? 'ignore' : 'pipe'],
      });
      children.push(child);
      exits.push(
        new Promise((resolveExit) => {
          child.once('error', (error: Error) => {
            spawnError ??= `${stage.file}: ${error.message}`;
            resolveExit(127);
          });
          child.once('close', (code: number | null) => resolveExit(code));
        }),
      );
      if (previous && child.stdin) {
        const upstream = [previous, ...upstreamSources];
        // A reader that quits early (head) must stop the writer (EPIPE) instead of leaving it blocked.
        const stopUpstream = (): void => upstream.forEach((stream) => stream.destroy());
        child.stdin.on('error', stopUpstream);
        child.once('exit', stopUpstream);
        previous.pipe(child.stdin);
      }
      upstreamSources = [];
      const merged = stage.stderr === 'merge';
      const collect = (stream: Readable, into: CappedText): void => {
        stream.setEncoding('utf8'); // decodes characters split across chunks correctly
        stream.on('data', (chunk: string) => {
          into.add(chunk);
          overCeiling();
        });
      };
      if (child.stderr && !merged) collect(child.stderr, stderr);
      if (last) {
        collect(child.stdout!, stdout);
        if (merged) collect(child.stderr!, stdout);
        previous = null;
      } else if (merged) {
        // `a 2>&1 | b`: both streams of `a` feed `b`, which sees EOF once both end.
        const both = new PassThrough();
        let open = 2;
        for (const stream of [child.stdout!, child.stderr!]) {
          stream.pipe(both, { end: false });
          stream.once('end', () => --open === 0 && both.end());
          stream.once('close', () => open > 0 && stream.readableEnded === false && --open === 0 && both.end());
        }
        previous = both;
        upstreamSources = [child.stdout!, child.stderr!];
      } else previous = child.stdout!;
    }

    const timer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killAll();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    void Promise.all(exits).then((codes) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const killed = timedOut || aborted || stoppedForSize;
      resolvePromise({
        stdout: stdout.text,
        stderr: stderr.text,
        exitCode: killed ? null : (codes[codes.length - 1] ?? null),
        timedOut,
        aborted,
        totalChars: stdout.total + stderr.total,
        stoppedForSize,
        durationMs: performance.now() - started,
        spawnError,
      });
    });
  });
}
