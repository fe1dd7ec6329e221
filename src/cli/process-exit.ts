/**
 * How a `reponav` process ends, and why it never lets its event loop run dry.
 * A one-shot command (search, index, view, …) exits as soon as its answer is
 * written; a command that leaves a server running (`mcp --http`, `ui`) says so
 * with {@link keepProcessAlive} and ends through its own signal handlers.
 *
 * Node.js 20 can deadlock when the event loop has nothing left to wait on: it
 * then blocks in `NodePlatform::DrainTasks` until V8's background tasks finish,
 * and a background TurboFan compile that needs a garbage collection waits for the
 * main thread, which waits for it (nodejs/node#54918; fixed in later Node.js
 * lines only). That point comes both at the end of a run and in the middle, while
 * the main thread awaits only V8 (a WebAssembly compile of a grammar: its promise
 * is settled by a V8 task, not by a libuv handle). Seen here as `reponav index`
 * sitting at 0% CPU in futex wait, about once in ten runs of the stress suite's
 * baseline steps, gdb showing exactly those two stacks. So the executable holds
 * the loop open with a timer from its first line ({@link holdEventLoop}) and ends
 * with `process.exit` ({@link finishProcess}), which skips the drain.
 */

let hold: NodeJS.Timeout | null = null;

/** Keeps the event loop from running dry until {@link finishProcess} (a timer that never fires in practice). */
export function holdEventLoop(): void {
  hold ??= setInterval(() => undefined, 2 ** 30);
}

let keptAlive = false;

/** Marks this process as serving until a signal ends it: {@link finishProcess} then leaves it running. */
export function keepProcessAlive(): void {
  keptAlive = true;
}

/** Whether a command called {@link keepProcessAlive} in this process. */
export function isProcessKeptAlive(): boolean {
  return keptAlive;
}

/** Resolves once everything written to `stream` so far has been handed to the operating system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  // A write's callback runs after the writes before it (streams keep order); an empty write adds nothing.
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * Ends the process with `code` once stdout and stderr are flushed, so nothing
 * printed is lost (pipes can be asynchronous, e.g. on macOS). When a command kept
 * the process alive, only sets `process.exitCode`, releases the {@link holdEventLoop}
 * timer and returns.
 */
export async function finishProcess(code: number): Promise<void> {
  process.exitCode = code;
  if (keptAlive) {
    // The server's own handles keep the process running now; its shutdown calls process.exit.
    if (hold) clearInterval(hold);
    hold = null;
    return;
  }
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
