/**
 * Test support: shell scripts run in a private mount namespace (`unshare -m`
 * as root, `unshare -rm` otherwise), so a test can mount a tiny tmpfs (a disk
 * that fills up) or a read-only bind mount (a read-only file system), as the
 * operating system reports them, without touching the machine's mounts: they
 * vanish with the namespace. Where namespaces are not allowed, tests skip and
 * say why.
 */
import { spawnSync } from 'node:child_process';
import { CLI, put } from './harness.js';

const UNSHARE = process.getuid?.() === 0 ? ['-m'] : ['-r', '-m'];

/** Null when scripts can mount here, else why not (the skip reason). */
export const mountNamespaceUnavailable: string | null = (() => {
  const probe = spawnSync('unshare', [...UNSHARE, 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt'], { encoding: 'utf8' });
  if (probe.error) return `unshare is not installed (${probe.error.message})`;
  return probe.status === 0 ? null : `mount namespaces are not allowed here (${probe.stderr.trim() || `exit ${probe.status}`})`;
})();

if (mountNamespaceUnavailable) console.warn(`skipping mount-namespace tests: ${mountNamespaceUnavailable}`);

/**
 * Runs `script` with `sh -e` in a private mount namespace, with `$CLI` naming
 * the built CLI (run it as `node "$CLI" …`) and `env` added; returns exit
 * code, stdout and stderr.
 */
export function inMountNamespace(script: string, env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const base: NodeJS.ProcessEnv = { ...process.env, CLI, FORCE_COLOR: '0', ...env };
  for (const key of Object.keys(base)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete base[key];
  const result = spawnSync('unshare', [...UNSHARE, 'sh', '-e', '-c', script], { encoding: 'utf8', env: base, timeout: 240_000, maxBuffer: 64 << 20 });
  return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/**
 * Writes 320 Python files of ~400 bytes each under `root`/orders: more files
 * than a focused first index or the provisional threshold (300) takes, and
 * more text than a 160 KiB tmpfs holds, for the full-disk cases.
 */
export function putTreeLargerThanTinyDisk(root: string): void {
  for (let i = 0; i < 320; i++) put(root, `orders/m${i}.py`, `def compute_total_${i}(order):\n    """Compute the order total ${i} with tax."""\n    return order.amount * ${i}  # ${'x'.repeat(300)}\n`);
}
