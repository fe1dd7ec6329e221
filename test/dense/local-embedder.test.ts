/**
 * Only the failure paths of LocalEmbedder are tested: @huggingface/transformers
 * is an optional dependency that is not installed here (its onnxruntime-node
 * native binary does not install in this environment), so loading a real
 * model cannot run in CI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isReponavError } from '../../src/errors.js';
import { createEmbedder } from '../../src/retrieve/dense/create-embedder.js';
import { LocalEmbedder, TRANSFORMERS_PACKAGE } from '../../src/retrieve/dense/local-embedder.js';

const modelDir = mkdtempSync(join(tmpdir(), 'reponav-local-model-'));
afterAll(() => rmSync(modelDir, { recursive: true, force: true }));

async function transformersInstalled(): Promise<boolean> {
  const specifier = TRANSFORMERS_PACKAGE;
  try {
    await import(/* @vite-ignore */ specifier);
    return true;
  } catch {
    return false;
  }
}

describe('LocalEmbedder without @huggingface/transformers', () => {
  it('rejects the first embed call with install instructions (real dynamic import)', async (context) => {
    if (await transformersInstalled()) context.skip();
    const embedder = new LocalEmbedder({ modelPath: modelDir });
    expect(embedder.id).toMatch(/^local:reponav-local-model-/);
    expect(embedder.dimension).toBeNull();
    const error = await embedder.embed(['hello']).catch((e: unknown) => e);
    expect(isReponavError(error, 'EMBEDDER_ERROR')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('npm install @huggingface/transformers');
    expect(message).toContain('--embed-model <folder>');
    expect(message).toContain('allowRemoteModels = false');
    expect(message).toContain('localModelPath');
  });

  it('maps a module-not-found from the loader to the same message, and retries the load on the next call', async () => {
    let attempts = 0;
    const importModule = async (specifier: string) => {
      attempts += 1;
      throw Object.assign(new Error(`Cannot find package '${specifier}' imported from /x.js`), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    const embedder = new LocalEmbedder({ modelPath: modelDir, importModule });
    await expect(embedder.embed(['a'])).rejects.toThrow(/npm install @huggingface\/transformers/);
    await expect(embedder.embed(['a'])).rejects.toThrow(/npm install @huggingface\/transformers/);
    expect(attempts).toBe(2);
  });

  it('reports a package that is present but fails to load (native runtime) differently', async () => {
    const importModule = async () => {
      throw new Error('onnxruntime_binding.node: cannot open shared object file');
    };
    const error = await new LocalEmbedder({ modelPath: modelDir, importModule }).embed(['a']).catch((e: unknown) => e);
    expect(isReponavError(error, 'EMBEDDER_ERROR')).toBe(true);
    expect((error as Error).message).toContain('installed but failed to load');
    expect((error as Error).message).toContain('--embedder openai-compatible');
  });

  it('rejects a missing model folder at construction, before loading anything', () => {
    expect(() => new LocalEmbedder({ modelPath: join(modelDir, 'nope') })).toThrow(/does not exist/);
    expect(() => createEmbedder({ kind: 'local' })).toThrow(/needs a model folder/);
    expect(() => createEmbedder({ kind: 'local', model: modelDir, baseUrl: 'http://x/v1' })).toThrow(/--embed-base-url applies to/);
  });
});
