/**
 * Whether V8 may recompile tree-sitter's hot wasm functions with its optimizing
 * compiler (TurboFan), chosen per parse job.
 *
 * A grammar's lexer and parse tables are a few very large wasm functions. V8's
 * dynamic tier-up sends them to TurboFan after a few milliseconds of parsing,
 * and compiling them costs seconds of CPU per grammar, on background threads
 * that a process must also wait for before it exits. A job that parses a few
 * hundred files never earns that back, so such a job keeps V8's baseline
 * compiler only (`--liftoff-only`, set at run time before the job's grammars
 * are compiled). Measured with `reponav index` against the same build without
 * this choice, two alternated rounds (docs/benchmarks.md, "Small indexing jobs
 * and V8's wasm tier-up"): CPU 0.22–0.23× on the 50-file, 14-language fixture
 * (wall 7.7–8.2 → 2.2 s), 0.40× on four copies of it, 0.51–0.52× on a
 * 1,126-file TypeScript tree (peak RSS 415–428 → 276–280 MB), 0.68–0.89× on
 * ripgrep, gin, jackson-core and zod, 1.01–1.02× on yt-dlp (1,233 files).
 * Raising the tier-up budget instead (`--wasm-tiering-budget`, even to its
 * maximum) does not hold on every tree: the 200-file copies still took 8.5
 * CPU s with it, 2.1–2.2 with `--liftoff-only`. Long jobs do earn the compile
 * back: held for them, sympy (2,087 Python files) took 5–8% more CPU, the
 * 11,625-file prefect + moto + diffusers tree 7–18%, typeorm (3,778 files,
 * mostly TypeScript) 4–10%. So jobs from {@link TIER_UP_FROM_FILES} files on
 * get V8's default (the threshold lies between yt-dlp's size and sympy's; a
 * job's languages matter too, which one process-wide flag cannot follow).
 *
 * V8's flags belong to the process, and worker threads read them when they
 * compile a grammar's functions: the main thread decides before it starts a
 * job's workers, and workers never decide. A process started with its own wasm
 * tiering flag on its command line (`node --no-liftoff-only …`) keeps it;
 * Node.js refuses these V8 flags in NODE_OPTIONS, so only the process's own
 * arguments can carry one. The choice stays in
 * force after the job, for any other wasm the process runs too: a library host
 * whose own wasm needs V8's optimizing compiler starts Node.js with
 * `--no-liftoff-only`, and reponav leaves it.
 */
import { setFlagsFromString } from 'node:v8';

/** Parse jobs of this many files or more let V8 tier up as it does by default. */
export const TIER_UP_FROM_FILES = 1500;
/** The flag of a smaller job: V8's baseline compiler only. */
export const HELD_FLAG = '--liftoff-only';
/**
 * The flags that give a large job after a smaller one in the same process V8's
 * default back: `--liftoff-only` also turns tier-up off when it is set, and
 * clearing it alone leaves that off (measured: the fixture's index stayed at
 * 2.8 CPU s; with tier-up turned back on, 9.9–10.8 s, V8's default).
 */
export const V8_DEFAULT_FLAG = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering';

/** What a parse job runs with: the baseline compiler only, V8's default, or the flags the process was started with. */
export type WasmTiering = 'held' | 'v8' | 'host';

/** Flags that choose wasm tiering themselves; a process started with one keeps its choice. */
const HOST_FLAGS = /(?:^|\s)--(?:wasm-tiering-budget|(?:no-)?liftoff-only|(?:no-)?liftoff|(?:no-)?wasm-tier-up|(?:no-)?wasm-dynamic-tiering)(?:[=\s]|$)/;

/** True when the process's own Node.js arguments (`process.execArgv`) set how wasm tiers up. */
export function hostChoosesTiering(execArgv: readonly string[]): boolean {
  return HOST_FLAGS.test(` ${execArgv.join(' ')} `);
}

/** The tiering a job of `files` files should run with (ignoring the host's flags). */
export function tieringFor(files: number): Exclude<WasmTiering, 'host'> {
  return files >= TIER_UP_FROM_FILES ? 'v8' : 'held';
}

/** What decides for a thread: the host's Node.js arguments, and how a flag is set (V8's flags in the product; a recorder in tests). */
export interface TieringHost {
  execArgv: readonly string[];
  setFlags(flags: string): void;
}

/** The choice of one thread: which flag it last set, and whether anything has chosen yet. */
export interface WasmTieringChooser {
  /** Sets the flag for a job of `files` files when it differs from the last one set; returns what the job runs with. */
  prepare(files: number): WasmTiering;
  /** A grammar's first load: outside any job (a single file parsed directly) it is a small job; workers never decide. */
  firstParse(isMain: boolean): void;
}

/**
 * A chooser over `host`. V8's own default is left alone until a small job sets
 * {@link HELD_FLAG}; a large job after that is given {@link V8_DEFAULT_FLAG}.
 */
export function createWasmTieringChooser(host: () => TieringHost): WasmTieringChooser {
  /** The flag last set, or null while V8's own default is in force. */
  let setFlag: string | null = null;
  let decided = false;
  const prepare = (files: number): WasmTiering => {
    decided = true;
    const { execArgv, setFlags } = host();
    if (hostChoosesTiering(execArgv)) return 'host';
    const tiering = tieringFor(files);
    const flag = tiering === 'held' ? HELD_FLAG : setFlag === null ? null : V8_DEFAULT_FLAG;
    if (flag !== null && flag !== setFlag) {
      setFlags(flag);
      setFlag = flag;
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
const processChooser = createWasmTieringChooser(() => ({ execArgv: process.execArgv, setFlags: setFlagsFromString }));

/**
 * Sets whether V8 may tier up wasm for a parse job of `files` files, before any of
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
