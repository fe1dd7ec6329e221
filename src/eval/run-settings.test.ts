import { describe, expect, it } from 'vitest';
import { checkResumeSettings, settingDifferences } from './run-settings.js';

describe('run settings on resume', () => {
  it('names every differing leaf, dotted, and a key recorded on one side only', () => {
    expect(settingDifferences({ a: 1, s: { x: 'p', y: [1] }, keep: 1 }, { a: 1, s: { x: 'q', y: [1, 2], z: true }, keep: 2 }, ['keep'])).toEqual([
      's.x: "p" → "q"',
      's.y: [1] → [1,2]',
      's.z: (not recorded) → true',
    ]);
    expect(settingDifferences({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
  });

  it('refuses in one sentence, or records the allowed differences after the earlier ones', () => {
    const previous = { model: 'a', allowedChanges: [{ at: 't0', differences: ['x: 1 → 2'] }] };
    expect(() => checkResumeSettings({ folder: '/runs/r', previous, current: { model: 'b' }, ignore: [], allow: false })).toThrow(
      '/runs/r holds a run made with other settings (model: "a" → "b"); use another --out folder, or --allow-changed-settings to resume anyway (recorded in run.json).',
    );
    const allowed = checkResumeSettings({ folder: '/runs/r', previous, current: { model: 'b' }, ignore: [], allow: true });
    expect(allowed.map((c) => c.differences)).toEqual([['x: 1 → 2'], ['model: "a" → "b"']]);
    expect(checkResumeSettings({ folder: '/runs/r', previous, current: { model: 'a' }, ignore: [], allow: false })).toEqual(previous.allowedChanges);
  });
});
