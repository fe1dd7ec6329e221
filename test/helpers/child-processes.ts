/**
 * Test support: every child process a test file starts through these helpers
 * is stopped when the file ends, pass or fail — an assertion that failed
 * before the test's own kill, a timeout while awaiting the child, a server
 * that never said it was ready. A test still stops its children itself when it
 * is done with them; this is the net under it. The hook is registered by the
 * file that imports this module (each test file gets its own copy).
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';

/** Children started and not yet exited. */
const live = new Set<ChildProcess>();
/** Connections (an MCP client over stdio, which owns its server's process) opened and not yet closed. */
const open = new Set<() => Promise<void>>();

afterAll(async () => {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
  await Promise.all([...open].map((close) => close().catch(() => undefined)));
  open.clear();
});

/** Registers `child` to be killed (SIGKILL) when the test file ends if it is still running; returns it. */
export function tracked<T extends ChildProcess>(child: T): T {
  if (child.exitCode !== null || child.signalCode !== null) return child;
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Registers `close` to run when the test file ends unless the returned function (the close to call instead) ran first. */
export function closedAtEnd(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  const once = () => (closing ??= (open.delete(once), close()));
  open.add(once);
  return once;
}
