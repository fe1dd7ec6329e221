import { describe, expect, it } from 'vitest';
import { isMissingPackage } from '../errors.js';
import { countCallTokens, tokenizerLoadError } from './local-tokens.js';

/** What Node throws for `import('gpt-tokenizer/…')` when the package is not installed. */
function notInstalled(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/reponav/dist/llm/local-tokens.js`), { code: 'ERR_MODULE_NOT_FOUND' });
}

describe('local token counts (optional gpt-tokenizer)', () => {
  it('count with the o200k tokenizer when it is installed', async () => {
    const counts = await countCallTokens([{ role: 'user', content: 'hello world' }], 'hi');
    expect(counts).toEqual({ inputTokens: 2 + 4, outputTokens: 1 });
  });

  it('name the install command when gpt-tokenizer is absent, and the cause when it is there but broken', () => {
    const missing = tokenizerLoadError(notInstalled('gpt-tokenizer'));
    expect(missing.code).toBe('LLM_ERROR');
    expect(missing.message).toContain('needs the optional package gpt-tokenizer, which is not installed: run `npm install gpt-tokenizer@4` next to reponav');
    expect(missing.details).toEqual({ missingPackage: 'gpt-tokenizer' });
    const broken = tokenizerLoadError(new SyntaxError('Unexpected token in rank table'));
    expect(broken.message).toBe('The gpt-tokenizer package is installed but failed to load (Unexpected token in rank table).');
    // Another package missing inside a present gpt-tokenizer is "broken", not "install gpt-tokenizer".
    expect(tokenizerLoadError(notInstalled('some-dependency')).message).toMatch(/installed but failed to load/);
  });

  it('isMissingPackage tells Node and bundler "not installed" from other failures', () => {
    expect(isMissingPackage(notInstalled('sqlite-vec'), 'sqlite-vec')).toBe(true);
    expect(isMissingPackage(Object.assign(new Error("Cannot find module 'sqlite-vec'"), { code: 'MODULE_NOT_FOUND' }), 'sqlite-vec')).toBe(true);
    expect(isMissingPackage(new Error('Could not resolve "gpt-tokenizer/encoding/o200k_base"'), 'gpt-tokenizer')).toBe(true);
    expect(isMissingPackage(new Error('sqlite-vec: wrong ELF class'), 'sqlite-vec')).toBe(false);
    expect(isMissingPackage(notInstalled('other'), 'sqlite-vec')).toBe(false);
  });
});
