// Run by child-processes.test.ts in a vitest of its own: a test that fails before it stops the child it started.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { tracked } from '../child-processes.js';

it('fails while its child runs', () => {
  const child = tracked(spawn('sleep', ['600'], { stdio: 'ignore' }));
  writeFileSync(process.env.LEAK_PID_FILE!, String(child.pid));
  expect('the test failed before stopping its child').toBe('');
});
