import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { searchWithTuning } from './search-repository.js';
import { inheritedMethods, nameShare, queryNames } from './named-functions.js';

const { indexed, cleanUp } = fixtureRepositories('function-ranking');
afterAll(cleanUp);

const names = (r: { functions: { path: string; qualifiedName: string }[] }) => r.functions.map((f) => `${f.path}:${f.qualifiedName}`);
/** Every structural lever off, so one test measures one. */
const ISOLATED = { memberWeight: 0, fileWeight: 0, nameWeight: 0, callWeight: 0, linkWeight: 0, classWeight: 0, eponymWeight: 0 };
const filler = (n: number) => Array.from({ length: n }, (_, i) => `        step_${i} = run_${i}(value)\n`).join('');

describe('class members as candidates (memberWeight)', () => {
  it('a matched class header makes its methods candidates, the longest first', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      // The header carries the words; the methods do not, so BM25 ranks none of them.
      'pkg/flows.py': `class Flow:\n    """Image pipeline with lora weights loading."""\n    def short(self):\n        return 1\n\n    def __call__(self, value):\n${filler(30)}        return value\n`,
    });
    try {
      const query = 'Add lora weights loading to the image pipeline';
      const off = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, memberWeight: 0 } });
      expect(names(off)).not.toContain('pkg/flows.py:Flow.__call__');
      const on = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, memberWeight: 0.5 } });
      expect(names(on).slice(0, 2)).toEqual(['pkg/flows.py:Flow.__call__', 'pkg/flows.py:Flow.short']);
      const header = on.hits.find((h) => h.kind === 'class')!.score;
      expect(on.functions[0]!.score).toBeCloseTo(0.5 * header, 6);
    } finally {
      repository.close();
    }
  });
});

describe('call neighbours (callWeight)', () => {
  it('the function a strong hit calls, in its own class, becomes a candidate at callWeight × its score', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/shadow.py': `class Shadow:\n    def update_thing_shadow(self, payload):\n        """Update thing shadow with the delta payload."""\n        return self.parse_payload(payload)\n\n    def parse_payload(self, data):\n${filler(5)}        return data\n`,
    });
    try {
      const query = 'update thing shadow delta payload fails';
      const off = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, callWeight: 0, callSources: 5, callScope: "ranked" } });
      const on = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, callWeight: 0.9, callSources: 5, callScope: "ranked" } });
      const score = (r: typeof on, n: string) => r.functions.find((f) => f.qualifiedName === n)?.score ?? 0;
      const source = score(off, 'Shadow.update_thing_shadow');
      expect(score(on, 'Shadow.parse_payload')).toBeCloseTo(Math.max(score(off, 'Shadow.parse_payload'), 0.9 * source), 6);
      expect(score(on, 'Shadow.parse_payload')).toBeGreaterThan(score(off, 'Shadow.parse_payload'));
    } finally {
      repository.close();
    }
  });
});

describe('names the query writes (nameWeight)', () => {
  it('weighs a name by its term weight over the strongest term, and leaves out traceback frame names', () => {
    const n = queryNames(['Task.map', 'prime'], [{ token: 'prime', weight: 6 }, { token: 'map', weight: 4 }, { token: 'task', weight: 4 }, { token: 'wait', weight: 3 }], ['wait']);
    expect(nameShare('prime', n)).toBe(1);
    expect(nameShare('Task.map', n)).toBeCloseTo(4 / 6, 6);
    expect(nameShare('Runner.map', n)).toBe(0);
    expect(nameShare('Future.wait', n)).toBe(0);
    // A name written with capitals names only what is spelt so.
    const state = queryNames(['TimedOut'], [{ token: 'timedout', weight: 2 }]);
    expect(nameShare('Call.timedout', state)).toBe(0);
    expect(nameShare('TimedOut', state)).toBe(1);
  });

  it('does not take a class the query names for its constructor in Java, C# and C++ (`Type.Type`), and leaves Go methods alone', () => {
    const n = queryNames(['JsonPointer', 'JsonPointer.head'], [{ token: 'jsonpointer', weight: 6 }, { token: 'head', weight: 4 }]);
    const java = 'src/main/java/core/JsonPointer.java';
    expect(nameShare('JsonPointer.JsonPointer', n, java)).toBe(0);
    expect(nameShare('Pointer.Pointer', n, 'src/Pointer.cs')).toBe(0);
    expect(nameShare('JsonPointer.head', n, java)).toBeCloseTo(1, 6);
    expect(nameShare('JsonPointer.Builder.JsonPointer', n, java)).toBe(1);
    const written = queryNames(['JsonPointer.JsonPointer'], [{ token: 'jsonpointer', weight: 6 }]);
    expect(nameShare('JsonPointer.JsonPointer', written, java)).toBe(1);
    // Go's `func (e *Error) Error() string` is a method like any other.
    const go = queryNames(['Error'], [{ token: 'error', weight: 6 }]);
    expect(nameShare('Error.Error', go, 'errors.go')).toBe(1);
  });

  it('finds the method a named class inherits from its base class, and nothing when the class defines it', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/base.py': `class Base:\n    def resize(self, width):\n        return width\n`,
      'pkg/middle.py': `from pkg.base import Base\n\nclass Middle(Base):\n    def draw(self):\n        return 1\n`,
      'pkg/widget.py': `from pkg.middle import Middle\n\nclass Widget(Middle):\n    def draw(self):\n        return 2\n\nclass Frame(Base):\n    def resize(self, width):\n        return 0\n`,
    });
    try {
      const inherited = (identifier: string) =>
        inheritedMethods(repository.store, queryNames([identifier], []), () => false).map((s) => `${s.path}:${s.qualifiedName}`);
      expect(inherited('Widget.resize')).toEqual(['pkg/base.py:Base.resize']);
      expect(inherited('Frame.resize')).toEqual([]);
      const query = 'Widget broken after `Widget.resize`';
      const score = (r: Awaited<ReturnType<typeof searchWithTuning>>) => r.functions.find((f) => f.qualifiedName === 'Base.resize')?.score ?? 0;
      const off = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, nameWeight: 0 } });
      const on = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, nameWeight: 2 } });
      expect(score(on)).toBeGreaterThan(score(off) + on.hits[0]!.score);
    } finally {
      repository.close();
    }
  });
});

describe('test functions (testFactor)', () => {
  it('multiplies the scores of functions in test files', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/cookies.py': `def load_cookies(jar):\n    return jar\n`,
      'tests/test_cookies.py': `def test_load_cookies():\n    assert load_cookies(jar) == jar\n`,
    });
    try {
      const query = 'load cookies jar broken';
      const off = await searchWithTuning(repository.store, query, { symbolRanking: { testFactor: 1 } });
      const on = await searchWithTuning(repository.store, query, { symbolRanking: { testFactor: 0.2 } });
      const score = (r: typeof on) => r.functions.find((f) => f.qualifiedName === 'test_load_cookies')!.score;
      expect(score(on)).toBeCloseTo(0.2 * score(off), 6);
    } finally {
      repository.close();
    }
  });
});
