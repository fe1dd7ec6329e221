import { describe, expect, it } from 'vitest';
import { slidingWindows } from './sliding-windows.js';

describe('slidingWindows', () => {
  it('slides from the bottom up by step, ending with the top window', () => {
    expect(slidingWindows(20, 10, 5)).toEqual([
      { start: 10, end: 20 },
      { start: 5, end: 15 },
      { start: 0, end: 10 },
    ]);
  });
  it('always ranks the top window, also when n - window is not a multiple of step', () => {
    expect(slidingWindows(22, 10, 5)).toEqual([
      { start: 12, end: 22 },
      { start: 7, end: 17 },
      { start: 2, end: 12 },
      { start: 0, end: 10 },
    ]);
  });
  it('uses one window when the list fits, none for no candidates', () => {
    expect(slidingWindows(7, 10, 5)).toEqual([{ start: 0, end: 7 }]);
    expect(slidingWindows(0, 10, 5)).toEqual([]);
  });
});
