/**
 * The Overview tab's endpoints: `/api/map` (repo_map) and `/api/changes`
 * (changed_files) over a served fixture with a git history, and their errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesResponse, MapResponse } from '../../src/http-api/api-types.js';
import { makeGitHistory } from '../mcp/git-fixture.js';
import { startFixtureServer, type FixtureServer } from './web-harness.js';

describe('overview endpoints', () => {
  let fx: FixtureServer;
  let plain: FixtureServer;
  beforeAll(async () => {
    fx = await startFixtureServer('tools-repo');
    makeGitHistory(fx.repoDir);
  });
  afterAll(async () => {
    await fx?.close();
    await plain?.close();
  });

  const get = async <T>(base: string, path: string) => {
    const res = await fetch(new URL(path, base));
    return { status: res.status, body: (await res.json()) as T };
  };

  it('answers the map, centred on a focus when given', async () => {
    const { status, body } = await get<MapResponse>(fx.url, '/api/map');
    expect(status).toBe(200);
    expect(body.text).toMatch(/^\[MAP\] /);
    expect(body.files.length).toBe(body.totalFiles);
    const focused = await get<MapResponse>(fx.url, '/api/map?focus=Cart,web/src/types.ts&budget=400');
    expect(focused.body.focus.files).toEqual(['web/src/cart.ts', 'web/src/types.ts']);
    expect((await get<{ error: string }>(fx.url, '/api/map?budget=lots')).status).toBe(400);
  });

  it('answers the changed files with their symbol changes', async () => {
    const { status, body } = await get<ChangesResponse>(fx.url, '/api/changes');
    expect(status).toBe(200);
    expect(body.files.map((f) => f.path)).toEqual(['web/src/cart.ts', 'shop/pricing.py', 'notes.py']);
    const between = await get<ChangesResponse>(fx.url, '/api/changes?from=HEAD~1&to=HEAD');
    expect(between.body.files[0].symbols?.map((s) => `${s.change} ${s.qualifiedName}`)).toContain('added helper');
    const unknown = await get<{ error: string; code: string }>(fx.url, '/api/changes?from=nope');
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.body.code).toBe('UNKNOWN_REVISION');
  });

  it('says when the folder is not a git repository', async () => {
    plain = await startFixtureServer('tools-repo');
    const { status, body } = await get<{ error: string; code: string }>(plain.url, '/api/changes');
    expect(status).toBeGreaterThanOrEqual(400);
    expect(body).toMatchObject({ code: 'NOT_A_GIT_REPOSITORY' });
  });
});
