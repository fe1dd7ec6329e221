/**
 * How soon V8 recompiles tree-sitter's hot wasm functions with its optimizing
 * compiler (TurboFan), chosen per parse job.
 *
 * A grammar's lexer and parse tables are a few very large wasm functions. V8's
 * default tier-up budget sends them to TurboFan after a few milliseconds of
 * parsing, and compiling them costs seconds of CPU per grammar, on background
 * threads that a process must also wait for before it exits. A job that parses
 * a few hundred files never earns that back. Measured with `reponav index`
 * against the same build without this choice, alternated (CPU s, user+sys):
 * the 50-file, 14-language fixture 10.9 → 1.9 (wall 8.5 → 1.7 s); a
 * 1,126-file TypeScript tree 14.6 → 7.5 (peak RSS 429 → 285 MB); zod (666
 * files) 5.4 → 5.1; ripgrep (236) 3.9 → 3.2. Long jobs do earn it back: sympy
 * (2,087 Python files) took 5–8% more CPU with the budget held, yt-dlp (1,239)
 * the same either way. So jobs below {@link TIER_UP_FROM_FILES} files hold the
 * budget far above what they execute, and larger ones get V8's default (the
 * threshold lies between yt-dlp's and sympy's size; a job's languages matter
 * too, which one process-wide flag cannot follow).
 *
 * V8's flags belong to the process, and worker threads read them when they
 * instantiate a grammar: the main thread decides before it starts a job's
 * workers, and workers never decide. A process started with its own wasm
 * tier-up flag (in its arguments or NODE_OPTIONS) keeps it. The held budget
 * stays in force after the job, for any other wasm the process runs too: a
 * library host whose own wasm needs V8's default tier-up starts Node.js with
 * `--wasm-tiering-budget=1800000` (V8's default), and reponav leaves it.
 */
import { setFlagsFromString } from 'node:v8';

/** Parse jobs of this many files or more let V8 tier up as it does by default. */
export const TIER_UP_FROM_FILES = 1500;
/** The budget of a smaller job: about 2 GB of wasm executed per function before TurboFan, i.e. never within such a job. */
export const HELD_TIERING_BUDGET = 2_000_000_000;
/** V8's own default in Node.js 20 (V8 11.3): what a large job after a smaller one in the same process is given back. */
export const V8_TIERING_BUDGET = 1_800_000;

/** What a parse job runs with: the held budget, V8's, or the flags the process was started with. */
export type WasmTiering = 'held' | 'v8' | 'host';

/** Flags that choose wasm tiering themselves; a process started with one keeps its choice. */
const HOST_FLAGS = /(?:^|\s)--(?:wasm-tiering-budget|liftoff-only|no-liftoff|(?:no-)?wasm-tier-up|(?:no-)?wasm-dynamic-tiering)(?:[=\s]|$)/;

/** True when the process's own arguments or NODE_OPTIONS set how wasm tiers up. */
export function hostChoosesTiering(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return HOST_FLAGS.test(` ${execArgv.join(' ')} ${nodeOptions ?? ''} `);
}

/** The tiering a job of `files` files should run with (ignoring the host's flags). */
export function tieringFor(files: number): Exclude<WasmTiering, 'host'> {
  return files >= TIER_UP_FROM_FILES ? 'v8' : 'held';
}

/** What decides for a thread: the host's flags, and how a budget is set (V8's flags in the product; a recorder in tests). */
export interface TieringHost {
  execArgv: readonly string[];
  nodeOptions: string | undefined;
  setFlags(flags: string): void;
}

/** The choice of one thread: which budget it last set, and whether anything has chosen yet. */
export interface WasmTieringChooser {
  /** Sets the budget for a job of `files` files when it differs from the last one set; returns what the job runs with. */
  prepare(files: number): WasmTiering;
  /** A grammar's first load: outside any job (a single file parsed directly) it is a small job; workers never decide. */
  firstParse(isMain: boolean): void;
}

/**
 * A chooser over `host`. V8's own default is left alone until a small job holds
 * the budget; a large job after that is given {@link V8_TIERING_BUDGET} back.
 */
export function createWasmTieringChooser(host: () => TieringHost): WasmTieringChooser {
  /** The budget last set, or null while V8's own default is in force. */
  let setBudget: number | null = null;
  let decided = false;
  const prepare = (files: number): WasmTiering => {
    decided = true;
    const { execArgv, nodeOptions, setFlags } = host();
    if (hostChoosesTiering(execArgv, nodeOptions)) return 'host';
    const tiering = tieringFor(files);
    const budget = tiering === 'held' ? HELD_TIERING_BUDGET : setBudget === null ? null : V8_TIERING_BUDGET;
    if (budget !== null && budget !== setBudget) {
      setFlags(`--wasm-tiering-budget=${budget}`);
      setBudget = budget;
    }
    return tiering;
  };
  return {
    prepare,
    firstParse(isMain) {
      if (isMain && !decided) prepare(0);
    },
  };
}

/** This thread's chooser over the process's flags (module state: V8's flags belong to the process). */
const processChooser = createWasmTieringChooser(() => ({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS, setFlags: setFlagsFromString }));

/**
 * Sets V8's wasm tier-up budget for a parse job of `files` files, before any of
 * its grammars are instantiated (call on the main thread, before its workers
 * start); returns what the job runs with. Changes the flag only when the
 * choice differs from the last one, and never when the host chose.
 */
export function prepareWasmTiering(files: number): WasmTiering {
  return processChooser.prepare(files);
}

/** Called on a grammar's first load (see {@link WasmTieringChooser.firstParse}). */
export function prepareFirstParse(isMain: boolean): void {
  processChooser.firstParse(isMain);
}
