/**
 * What a stdio MCP server that cannot start tells its client. A client that
 * spawned the server and sees only the pipe close shows "Connection closed",
 * however clear the server's stderr was; so before exiting, the server reads
 * the client's first request (`initialize` in the 2025 era, `server/discover`
 * in 2026-07-28's) and answers it — and anything else asked meanwhile — with a
 * JSON-RPC error naming the problem, which clients show as the server's error.
 */
import type { Readable, Writable } from 'node:stream';

/** JSON-RPC's "server error" range: the server exists but could not start. */
export const STARTUP_FAILURE_CODE = -32000;

/** How long the server waits for a client's first request before exiting anyway. */
export const STARTUP_FAILURE_WAIT_MS = 10_000;

export interface StartupFailureOptions {
  stdin?: Readable;
  stdout?: Writable;
  waitMs?: number;
}

/** The methods whose answer ends the wait: the client now has the message. */
const OPENING_METHODS = new Set(['initialize', 'server/discover']);

/**
 * Answers every request on `stdin` with an error carrying `message` until an
 * opening request was answered, stdin ends, or `waitMs` passes. Notifications
 * (no id) are ignored. Never rejects.
 */
export function answerStartupFailure(message: string, options: StartupFailureOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  return new Promise<void>((resolve) => {
    let buffered = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', finish);
      stdin.off('error', finish);
      stdin.pause();
      resolve();
    };
    const reply = (id: unknown): Promise<void> =>
      new Promise((written) => {
        const body = { jsonrpc: '2.0', id, error: { code: STARTUP_FAILURE_CODE, message: `reponav could not start: ${message}` } };
        stdout.write(`${JSON.stringify(body)}\n`, () => written());
      });
    const onData = (chunk: Buffer | string) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        let request: { id?: unknown; method?: unknown };
        try {
          request = JSON.parse(line) as typeof request;
        } catch {
          continue;
        }
        if (request === null || typeof request !== 'object' || request.id === undefined || request.id === null) continue;
        const opening = typeof request.method === 'string' && OPENING_METHODS.has(request.method);
        void reply(request.id).then(() => (opening ? finish() : undefined));
      }
    };
    const timer = setTimeout(finish, options.waitMs ?? STARTUP_FAILURE_WAIT_MS);
    timer.unref?.();
    stdin.on('data', onData);
    stdin.once('end', finish);
    stdin.once('error', finish);
    stdin.resume();
  });
}
