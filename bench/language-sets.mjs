#!/usr/bin/env node
// Per-language proxy sets: bench/history-instances.mjs's commit-message
// instances for the repositories of bench/language-sets.json, rebuilt from the
// revision and checked against the fix commits the manifest records, so every
// language's figure comes from the same instances on any machine.
//
// Usage:
//   node bench/language-sets.mjs --mirrors DIR --out DIR [--manifest FILE] [--update]
// --mirrors: the folder holding owner+name/repo git directories (eval locbench's --repos).
// --out: writes <language>.jsonl (that language's repositories pooled) and owner+name.jsonl per repository.
// --update: takes each repository's HEAD instead, and rewrites the manifest's rev and commits.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBenchArgs } from './bench-args.mjs';
import { historyInstances } from './history-instances.mjs';

const USAGE = `usage: node bench/language-sets.mjs --mirrors DIR --out DIR [--manifest FILE] [--update]
  rebuilds the per-language commit-message sets of the manifest (default bench/language-sets.json)
  into DIR/<language>.jsonl and DIR/<owner+name>.jsonl; --update re-reads each mirror's HEAD`;

const { values } = parseBenchArgs({
  usage: USAGE,
  options: { mirrors: { type: 'string' }, out: { type: 'string' }, manifest: { type: 'string' }, update: { type: 'boolean' } },
});
if (!values.mirrors || !values.out) {
  process.stderr.write(`--mirrors and --out are needed\n\n${USAGE}\n`);
  process.exit(2);
}
const manifestPath = values.manifest ?? new URL('./language-sets.json', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
mkdirSync(values.out, { recursive: true });

const byLanguage = new Map();
let mismatches = 0;
for (const set of manifest.sets) {
  const gitDir = join(values.mirrors, set.repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    process.stderr.write(`${set.repo}: no mirror at ${gitDir} (clone it with git clone --mirror)\n`);
    process.exit(1);
  }
  const options = { ...manifest.options, rev: values.update ? 'HEAD' : set.rev, languages: new Set(set.languages) };
  const { instances } = await historyInstances(gitDir, set.repo, options);
  const commits = instances.map((instance) => instance.fix_commit);
  if (values.update) {
    set.rev = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    set.commits = commits;
  } else if (JSON.stringify(commits) !== JSON.stringify(set.commits)) {
    // Same revision and rules must give the same commits; a difference means the rules or the parser changed.
    mismatches++;
    const expected = new Set(set.commits);
    const extra = commits.filter((c) => !expected.has(c)).length;
    process.stderr.write(`${set.repo}: ${extra} of ${commits.length} commits differ from the manifest's ${set.commits.length}\n`);
  }
  const jsonl = instances.map((instance) => JSON.stringify(instance)).join('\n') + (instances.length > 0 ? '\n' : '');
  writeFileSync(join(values.out, `${set.repo.replace('/', '+')}.jsonl`), jsonl);
  byLanguage.set(set.language, (byLanguage.get(set.language) ?? '') + jsonl);
  process.stderr.write(`${set.language} ${set.repo}: ${instances.length} instances at ${(set.rev ?? '').slice(0, 12)}\n`);
}
for (const [language, jsonl] of byLanguage) writeFileSync(join(values.out, `${language}.jsonl`), jsonl);
if (values.update) writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 1)}\n`);
if (mismatches > 0) {
  process.stderr.write(`${mismatches} repositories differ from the manifest\n`);
  process.exit(1);
}
