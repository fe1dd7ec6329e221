/**
 * Citation checking end to end: fabricated spans (no such file, past the end
 * of the file, not containing the named symbol) are caught, one revision
 * round runs, and nothing bad is shipped.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askQuestion, CitationChecker } from '../../src/agents/ask/index.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { FIXTURE_FILES, openFixtureRepo, type FixtureRepo } from './helpers/fixture-repo.js';
import { evalReply, planReply, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.js';

let repo: FixtureRepo;
let llm: ScriptedLlm;
beforeAll(async () => {
  repo = await openFixtureRepo();
});
afterAll(async () => repo.close());
beforeEach(async () => {
  llm = await startScriptedLlm();
});
afterEach(async () => llm.close());

const rag = () => askQuestion({ question: 'How are command-line flags parsed?', method: 'rag', model: llm.model(), repositories: repo.repositories });

describe('CitationChecker', () => {
  it('re-reads spans through the index and checks names', async () => {
    const checker = new CitationChecker({ registry: createToolRegistry(), toolContext: { repositories: repo.repositories } });
    const checked = await checker.check(
      '`parse_args` (shop/cli.py:4-9) is fine; `parse_args` (shop/cart.py:1-5) is not; shop/cli.py:10-99 is too long; ' +
        '`with_tax` (pricing.py:13-15) resolves by suffix; ghost.py:1-2 does not exist; shop/cli.py:9-4 is reversed.',
    );
    expect(checked.map((c) => [c.text, c.verdict.path, c.verdict.valid, c.verdict.reason])).toEqual([
      ['shop/cli.py:4-9', 'shop/cli.py', true, null],
      ['shop/cart.py:1-5', 'shop/cart.py', false, 'span does not contain `parse_args`'],
      ['shop/cli.py:10-99', 'shop/cli.py', false, 'span past the end of the file (17 lines)'],
      ['pricing.py:13-15', 'shop/pricing.py', true, null],
      ['ghost.py:1-2', null, false, 'no indexed file ghost.py'],
      ['shop/cli.py:9-4', null, false, 'reversed line range 9-4'],
    ]);
    const past = await checker.verify({ text: 'shop/cli.py:40-41', path: 'shop/cli.py', startLine: 40, endLine: 41, names: [] });
    expect(past.reason).toMatch(/past the end of shop\/cli\.py, which has 17 lines/);
  });
});

describe('CitationChecker: a name is kept only where the index defines it in that file', () => {
  it('path:Name claims a definition in that file; a qualified name of a repository class must exist as written; a bare name is a text check', async () => {
    const checker = new CitationChecker({ registry: createToolRegistry(), toolContext: { repositories: repo.repositories } });
    const checked = await checker.check(
      'See `shop/cart.py:Cart.total`, shop/cart.py:Cart.with_tax, `shop/cart.py:with_tax` and `shop/pricing.py::with_tax`. ' +
        '`Cart.with_tax` (shop/pricing.py:13-15) adds tax; `Cart.total` (shop/cli.py:12-17) prints the total; ' +
        '`Cart.total` in shop/pricing.py; `apply_discount` in shop/cart.py; the discount is applied by `Cart.add` and the flags are read in shop/cli.py.',
    );
    expect(checked.map((c) => [c.text, c.names, c.verdict.valid, c.verdict.reason])).toEqual([
      ['shop/cart.py:Cart.total', ['Cart.total'], true, null],
      ['shop/cart.py:Cart.with_tax', ['Cart.with_tax'], false, 'shop/cart.py does not define `Cart.with_tax`'],
      ['shop/cart.py:with_tax', ['with_tax'], false, 'shop/cart.py does not define `with_tax`'],
      ['shop/pricing.py::with_tax', ['with_tax'], true, null],
      ['shop/pricing.py:13-15', ['Cart.with_tax'], false, 'no `Cart.with_tax` is defined in the repository (`Cart` has no `with_tax`)'],
      ['shop/cli.py:12-17', ['Cart.total'], true, null],
      ['shop/pricing.py', ['Cart.total'], false, 'shop/pricing.py does not contain `Cart.total`'],
      ['shop/cart.py', ['apply_discount'], true, null],
      ['shop/cli.py', [], true, null],
    ]);
  });
});

/** What the index defines in the fixture, per file (qualified names): the oracle of the generated claims. */
const DEFINED: Record<string, string[]> = {
  'shop/cli.py': ['parse_args', 'main'],
  'shop/cart.py': ['Cart', 'Cart.__init__', 'Cart.add', 'Cart.total'],
  'shop/pricing.py': ['apply_discount', 'with_tax'],
};
const REPOSITORY_NAMES = Object.values(DEFINED).flat();
const definedAs = (names: readonly string[], name: string) => names.some((q) => q === name || q.endsWith(`.${name}`));
const holds = (text: string, name: string) => new RegExp(`(?<![A-Za-z0-9_])${name.split('.').pop()}(?![A-Za-z0-9_])`).test(text);

describe('CitationChecker: generated name claims (seeded)', () => {
  it('path:Name is kept exactly when the file defines the name; `Name` in path when the file holds it and a repository class has it', async () => {
    const seed = 4143;
    const random = mulberry32(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const checker = new CitationChecker({ registry: createToolRegistry(), toolContext: { repositories: repo.repositories } });
    const lasts = ['total', 'add', 'with_tax', 'apply_discount', 'parse_args', 'main', 'items', 'round'];
    for (let i = 0; i < 200; i++) {
      const path = pick(Object.keys(DEFINED));
      const owner = pick(['Cart', 'cart', 'self', '', '']);
      const name = owner ? `${owner}.${pick(lasts)}` : pick(lasts);
      const definition = random() < 0.5;
      const text = definition ? `See \`${path}:${name}\`.` : `See \`${name}\` in ${path}.`;
      const [c] = await checker.check(text);
      const expected = definition
        ? definedAs(DEFINED[path]!, name)
        : holds(FIXTURE_FILES[path]!, name) && (!owner || !definedAs(REPOSITORY_NAMES, owner) || definedAs(REPOSITORY_NAMES, name));
      expect(c?.names, `seed ${seed}, case ${i}: ${text}`).toEqual([name]);
      expect(c?.verdict.valid, `seed ${seed}, case ${i}: ${text} (${c?.verdict.reason})`).toBe(expected);
    }
  });
});

describe('answer synthesis with checked citations', () => {
  it.each([
    ['the answer', ["I'm sorry, but I can't help with that request."]],
    ['the revision round', ['`parse_args` (shop/cart.py:4-9) reads the flags.', 'Lo siento, pero no puedo ayudar con eso.']],
  ])('a refusal written as text in %s is never shipped: the run stops with llm-error and a marked fallback', async (_, replies) => {
    llm.push('answer', replies[0]!);
    if (replies[1]) llm.push('revision', replies[1]);
    const r = await rag();
    expect(r.stopReason).toBe('llm-error');
    expect(r.trace.llmError).toMatch(/refused to answer/);
    expect(r.trace.answer.fallback).toBe(true);
    // What was printed is the error, quoting the refusal as the reason, not the refusal as an answer.
    expect(r.answer).toMatch(/^No answer was written: the model call failed \(.*the model refused to answer \(finish reason "stop"\): "/);
  });

  it('a function named with a file that does not define it is marked [unverified] and counted', async () => {
    const draft = '`parse_args` (shop/cli.py:4-9) reads the flags with `shop/cart.py:Cart.parse_args`.';
    llm.push('answer', draft);
    llm.push('revision', draft);
    const r = await rag();
    expect(r.trace.answer.dropped.map((d) => [d.text, d.reason])).toEqual([['shop/cart.py:Cart.parse_args', 'shop/cart.py does not define `Cart.parse_args`']]);
    expect(r.answer).not.toContain('shop/cart.py:Cart.parse_args');
    expect(r.answer).toContain('[unverified]: the code cited for this claim did not check out');
    expect(r.citations.map((c) => c.text)).toEqual(['shop/cli.py:4-9']);
  });

  it('ships a correct answer unchanged', async () => {
    llm.push('answer', '`parse_args` (shop/cli.py:4-9) builds an `ArgumentParser` with `--verbose` and `--code`.');
    const r = await rag();
    expect(r.trace.answer.revised).toBe(false);
    expect(r.answer).toBe('`parse_args` (shop/cli.py:4-9) builds an `ArgumentParser` with `--verbose` and `--code`.');
    expect(r.citations).toHaveLength(1);
    expect(r.citations[0]).toMatchObject({ path: 'shop/cli.py', names: ['parse_args'], valid: true });
  });

  it('catches a fabricated citation and ships the revised answer', async () => {
    llm.push('answer', '`parse_args` (shop/cart.py:4-9) reads the flags; defaults live in `settings.py:1-20`.');
    llm.push('revision', '`parse_args` (shop/cli.py:4-9) reads the flags.');
    const r = await rag();
    expect(r.trace.answer.revised).toBe(true);
    expect(r.trace.answer.draftProblems.map((p) => [p.text, p.reason])).toEqual([
      ['shop/cart.py:4-9', 'span does not contain `parse_args`'],
      ['settings.py:1-20', 'no indexed file settings.py'],
    ]);
    const revision = llm.of('revision')[0]!.prompt;
    expect(revision).toContain('- shop/cart.py:4-9: span does not contain `parse_args`');
    expect(revision).toContain('Evidence (the spans you may cite):');
    expect(r.answer).toBe('`parse_args` (shop/cli.py:4-9) reads the flags.');
    expect(r.trace.answer.dropped).toEqual([]);
  });

  it('drops a bad citation that survives the revision round and marks the claim it supported', async () => {
    llm.push('answer', '`parse_args` (shop/cli.py:4-9) reads the flags; `main` is at shop/cli.py:40-45.');
    llm.push('revision', '`parse_args` (shop/cli.py:4-9) reads the flags; `main` (shop/cli.py:40-45) exits with the code, really.');
    const r = await rag();
    expect(r.answer).toBe(
      '`parse_args` (shop/cli.py:4-9) reads the flags; `main` exits with the code [unverified], really.\n\n' +
        '[unverified]: the code cited for this claim did not check out, so the citation was removed.',
    );
    expect(r.trace.answer.dropped.map((d) => d.text)).toEqual(['shop/cli.py:40-45']);
    expect(r.citations.map((c) => c.text)).toEqual(['shop/cli.py:4-9']);
    expect(llm.of('revision')).toHaveLength(1);
  });

  it('checks every path the answer names, in any form: lines in words, CJK, bare paths; invented ones are marked and counted', async () => {
    const draft =
      'Discounts are computed in billing/discounts.py (lines 12 to 30); the encoder is src/flask/json/encoder.py, lines 40-66; ' +
      'the flags are read by `parse_args` in shop/cli.py, lines 4-9; the old parser was shop/legacy.py 第 900-950 行; see also `inventory/stock.py`.';
    llm.push('answer', draft);
    llm.push('revision', draft);
    const r = await rag();
    expect(r.trace.answer.dropped.map((d) => d.reason)).toEqual([
      'no indexed file billing/discounts.py',
      'no indexed file src/flask/json/encoder.py',
      'no indexed file shop/legacy.py',
      'no indexed file inventory/stock.py',
    ]);
    for (const invented of ['billing/discounts.py', 'encoder.py', 'shop/legacy.py', 'inventory/stock.py']) expect(r.answer).not.toContain(invented);
    expect(r.answer).toContain('[unverified]: the code cited for these claims did not check out, so the 4 citations were removed.');
    // What is left reads as text: no bracket the removal left open or closed, no separator joining nothing.
    expect(r.answer).not.toMatch(/[^`]\)|\(\s*\[|\s(?:and|,)\s*\[unverified\]|\s;/);
    expect(r.citations.map((c) => [c.path, c.startLine, c.endLine])).toEqual([['shop/cli.py', 4, 9]]);
  });

  it('checks support, not only existence: a real span the search never read is not a citation', async () => {
    const r0 = await rag();
    const read = new Set(r0.trace.answerEvidence.map((e) => e.path));
    expect(read.has('shop/cli.py')).toBe(true);
    // TAX_RATE exists at shop/pricing.py:3, but retrieval for a question about flags did not read it.
    expect(r0.trace.answerEvidence.some((e) => e.path === 'shop/pricing.py' && e.startLine <= 3 && 3 <= e.endLine)).toBe(false);
    llm.push('answer', '`parse_args` (shop/cli.py:4-9) reads the flags, and `TAX_RATE` (shop/pricing.py:3) is 0.2.');
    llm.push('revision', '`parse_args` (shop/cli.py:4-9) reads the flags, and `TAX_RATE` (shop/pricing.py:3) is 0.2.');
    const r = await rag();
    expect(r.trace.answer.draftProblems.map((p) => [p.text, p.reason])).toEqual([['shop/pricing.py:3', 'not in the evidence the answer was written from']]);
    expect(r.citations.map((c) => c.text)).toEqual(['shop/cli.py:4-9']);
    expect(r.answer).not.toContain('shop/pricing.py:3');
  });

  it('adds checked sources when the answer is left with no valid citation', async () => {
    llm.push('answer', 'Flags are parsed with argparse.');
    llm.push('revision', 'Flags are parsed with argparse, see `parse_args` (shop/cart.py:1-3).');
    const r = await rag();
    expect(r.trace.answer.revised).toBe(true);
    expect(r.answer).toMatch(/^Flags are parsed with argparse, see `parse_args` \[unverified\]\.\n\n\[unverified\]: the code cited for this claim did not check out, so the citation was removed\.\n\nSources: `shop\/[a-z]+\.py:\d+-\d+`/);
    expect(r.citations.length).toBeGreaterThan(0);
    expect(r.citations.every((c) => c.valid)).toBe(true);
  });

  it('checks the MCTS answer the same way', async () => {
    llm.push('planning', planReply(['FindFunction', { name: 'parse_args' }]));
    llm.push('evaluation', evalReply(90));
    llm.push('answer', '`parse_args` (shop/pricing.py:6-10) parses flags.');
    llm.push('revision', '`parse_args` (shop/cli.py:4-9) parses flags.');
    const r = await askQuestion({ question: 'How are flags parsed?', model: llm.model(), repositories: repo.repositories, settings: { iterations: 1 } });
    expect(r.trace.answer.draftProblems[0]!.reason).toBe('span does not contain `parse_args`');
    expect(r.answer).toBe('`parse_args` (shop/cli.py:4-9) parses flags.');
  });
});
