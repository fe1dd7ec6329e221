import { describe, expect, it } from 'vitest';
import { keepingWorkOnInterrupt } from './interrupted-build.js';

describe('keepingWorkOnInterrupt', () => {
  it('on Ctrl-C says the work so far is kept and the next run resumes, and exits 130', async () => {
    const written: string[] = [];
    const exits: number[] = [];
    let finish: (value: string) => void = () => {};
    const running = keepingWorkOnInterrupt(() => new Promise<string>((resolve) => (finish = resolve)), {
      write: (text) => void written.push(text),
      exit: (code) => void exits.push(code),
    });
    process.emit('SIGINT');
    expect(exits).toEqual([130]);
    expect(written.join('')).toMatch(/interrupted: the files indexed so far are kept; the next reponav command resumes/);
    finish('done');
    expect(await running).toBe('done');
    // The handler is gone once the work is over: a later Ctrl-C is not answered by it.
    expect(process.listeners('SIGINT')).toHaveLength(0);
  });
});
