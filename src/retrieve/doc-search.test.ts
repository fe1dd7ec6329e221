import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { compilePathPattern } from '../index/index.js';
import { indexConnection } from '../index/store/index-store.js';
import { RepositoryIndex } from '../index/repository-index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { parseQuery } from './query-parser.js';
import { documentPlacement, isDocumentationPath, mergeWithDocs } from './doc-search.js';
import { searchRepository } from './search-repository.js';

const fixtures = fixtureRepositories('docs');
let repository: RepositoryIndex;

const FILES: Record<string, string> = {
  'app/client.py': [
    'class TestClient:',
    '    """Sends requests to the application without a server."""',
    '    def open(self, path):',
    '        return self.application.handle(path)',
    '',
  ].join('\n'),
  'app/sessions.py': 'def open_session(request):\n    return request.cookies.get("session")\n',
  'docs/testing.rst': [
    'Testing Applications', // 1
    '====================', // 2
    '', // 3
    'Write tests with pytest.', // 4
    '', // 5
    'The Test Client', // 6
    '---------------', // 7
    '', // 8
    'The testing client sends requests: use ``app.test_client()`` in a testing fixture.', // 9
    '', // 10
    'Sessions', // 11
    '--------', // 12
    '', // 13
    'Modify the session inside a request context.', // 14
    '',
  ].join('\n'),
  'docs/deploy.md': '# Deploying\n\nRun the server behind a proxy.\n',
  'requirements.txt': 'pytest client testing\n',
  'tests/data/notes.txt': 'testing client testing client\n',
};

beforeAll(async () => {
  repository = await fixtures.indexed(FILES);
});
afterAll(() => {
  repository.close();
  fixtures.cleanUp();
});

describe('documentation search', () => {
  it('finds an RST section under a file pattern that selects prose, where the code search alone finds nothing', async () => {
    const pathFilter = compilePathPattern('*.rst');
    const result = await searchRepository(repository.store, 'testing client', { pathFilter });
    expect(result.files).toEqual([]);
    expect(result.docPlacement).toBe('equal');
    expect(result.docs).toEqual([
      { path: 'docs/testing.rst', section: 'Testing Applications > The Test Client', startLine: 6, endLine: 10, score: result.docs![0]!.score },
    ]);
  });

  it('lists docs below the code for an issue text, leaving the code ranking as it is without docs', async () => {
    const issue = 'Testing client loses the session\nWhen the testing client opens a path, the session cookie is gone.';
    const withDocs = await searchRepository(repository.store, issue);
    const without = await searchRepository(repository.store, issue, { documents: 'off' });
    expect(withDocs.docPlacement).toBe('below');
    expect(withDocs.docs!.map((d) => d.path)).toContain('docs/testing.rst');
    expect(without.docs).toEqual([]);
    expect(withDocs.files).toEqual(without.files);
    expect(withDocs.functions).toEqual(without.functions);
  });

  it('ranks docs on equal terms for a how-to question', async () => {
    const result = await searchRepository(repository.store, 'how do I use the testing client');
    expect(result.docPlacement).toBe('equal');
    expect(result.docs![0]!.path).toBe('docs/testing.rst');
  });

  it('leaves out pins, licences and test data', async () => {
    const result = await searchRepository(repository.store, 'pytest testing client', { pathFilter: compilePathPattern('*.txt') });
    expect(result.docs).toEqual([]);
    expect(isDocumentationPath('requirements.txt')).toBe(false);
    expect(isDocumentationPath('tests/data/notes.txt')).toBe(false);
    expect(isDocumentationPath('docs/guide/intro.txt')).toBe(true);
  });
});

describe('the documentation corpus cache', () => {
  it('is written beside the index, read back by another process, and a damaged file is a miss', async () => {
    const query = 'testing client session';
    const first = await searchRepository(repository.store, query);
    const indexPath = indexConnection(repository.store).name;
    const cacheFile = `${indexPath}.docs-v3.cache`;
    expect(existsSync(cacheFile)).toBe(true);
    const reopen = async () => {
      const other = await RepositoryIndex.open(repository.root, { indexPath });
      try {
        return (await searchRepository(other.store, query)).docs;
      } finally {
        other.close();
      }
    };
    expect(await reopen()).toEqual(first.docs);
    const whole = readFileSync(cacheFile);
    const fingerprint = whole.toString('utf8').split('\n')[0];
    writeFileSync(cacheFile, `${fingerprint}\n{"torn":`);
    expect(await reopen()).toEqual(first.docs);
    // Cut inside the binary postings, or their header changed: a miss too, never a wrong answer.
    writeFileSync(cacheFile, whole.subarray(0, whole.length - 7));
    expect(await reopen()).toEqual(first.docs);
    const flipped = Buffer.from(whole);
    flipped[whole.indexOf(0x0a, fingerprint.length + 1) + 1] ^= 0xff;
    writeFileSync(cacheFile, flipped);
    expect(await reopen()).toEqual(first.docs);
  });
});

describe('documentPlacement', () => {
  it('is equal only for a short one-line how-to question or a pattern that selects prose', () => {
    const store = repository.store;
    const placement = (text: string, filter: ((path: string) => boolean) | undefined) => documentPlacement(store, parseQuery(text), filter);
    expect(placement('how to configure the proxy', undefined)).toBe('equal');
    expect(placement('examples of sessions', undefined)).toBe('equal');
    expect(placement('session cookie is lost', undefined)).toBe('below');
    expect(placement('How to reproduce\nThe session cookie is lost after a redirect.', undefined)).toBe('below');
    expect(placement('session', compilePathPattern('docs/'))).toBe('equal');
    expect(placement('session', compilePathPattern('*.py'))).toBe('below');
  });
});

describe('mergeWithDocs', () => {
  const doc = (path: string, score: number) => ({ path, section: null, startLine: 1, endLine: 1, score });
  it('puts docs after the code below, and merges by share of each best score on equal terms (code first on a tie)', () => {
    const code = [{ score: 10 }, { score: 4 }];
    const docs = [doc('a.md', 2), doc('b.md', 1.5)];
    const order = (placement: 'below' | 'equal') => mergeWithDocs(code, docs, placement).map((x) => ('code' in x ? x.code.score : x.doc.path));
    expect(order('below')).toEqual([10, 4, 'a.md', 'b.md']);
    expect(order('equal')).toEqual([10, 'a.md', 'b.md', 4]);
  });
});
