// One hash of the default search's answers (files, modules, functions with
// their scores) over LocBench instances, each at its commit, so two builds'
// rankings can be compared bit for bit. Every instance is searched twice in
// one process, the second time after an edit-free refresh (which must keep the
// index state, so every derived value is reused, and answer the same).
//   node bench/search-identity.mjs --dist DIR --instances A.jsonl[,B.jsonl] --repos DIR --index-dir DIR [--options-json JSON]
// --options-json: the search's tuned options (searchWithTuning, as eval's --config-json
// takes them) instead of the default search; to compare two builds under one setting
// written in each build's own form.
// --index-dir holds one `owner+name@commit.db` per instance (tune-loro.mjs
// --index-dir builds them); a missing one is an error, none is built here.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseBenchArgs } from './bench-args.mjs';

const { values } = parseBenchArgs({
  usage: 'usage: node bench/search-identity.mjs --dist DIR --instances A.jsonl[,B.jsonl] --repos DIR --index-dir DIR [--options-json JSON]',
  options: { dist: { type: 'string' }, instances: { type: 'string' }, repos: { type: 'string' }, 'index-dir': { type: 'string' }, 'options-json': { type: 'string' } },
});
const dist = pathToFileURL(resolve(values.dist)).href;
const { RepositoryIndex } = await import(`${dist}/index/repository-index.js`);
const searchModule = await import(`${dist}/retrieve/search-repository.js`);
const tuned = values['options-json'] === undefined ? undefined : JSON.parse(values['options-json']);
/** The search compared: the default one, or the tuned one under --options-json. */
const search = (store, text) => (tuned === undefined ? searchModule.searchRepository(store, text) : searchModule.searchWithTuning(store, text, tuned));
const { readLocbenchInstances } = await import(`${dist}/eval/locbench-instances.js`);
const { findRepoGitDir } = await import(`${dist}/eval/repo-lookup.js`);
const { snapshotOf } = await import(`${dist}/index/index.js`);

const instances = [];
for (const file of values.instances.split(',')) instances.push(...(await readLocbenchInstances(file)).instances);
instances.sort((a, b) => (a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0));

/** The answer as one line: every ranked item with its score, in rank order. */
function answerLine(id, result) {
  return JSON.stringify({
    id,
    files: result.files.map((f) => [f.path, f.score]),
    modules: result.modules.map((m) => [m.path, m.qualifiedName, m.score]),
    functions: result.functions.map((f) => [f.path, f.qualifiedName, f.score]),
  });
}

const all = createHash('sha256');
let differing = 0;
/** Instances whose edit-free refresh started a new index state (which drops every derived value). */
let newStates = 0;
let items = 0;
const started = Date.now();
for (const instance of instances) {
  const found = findRepoGitDir(values.repos, instance.repo);
  if (!found.ok) throw new Error(found.reason);
  const path = join(values['index-dir'], `${instance.repo.replace(/\//g, '+')}@${instance.base_commit}.db`);
  if (!existsSync(path)) throw new Error(`no index for ${instance.instance_id}: ${path}`);
  const repository = await RepositoryIndex.open(found.gitDir, { commit: instance.base_commit, indexPath: path });
  try {
    await repository.refresh();
    const result = await search(repository.store, instance.problem_statement);
    items += result.files.length + result.modules.length + result.functions.length;
    const first = answerLine(instance.instance_id, result);
    const snapshot = snapshotOf(repository.store);
    await repository.refresh();
    if (snapshotOf(repository.store) !== snapshot) newStates++;
    const second = answerLine(instance.instance_id, await search(repository.store, instance.problem_statement));
    if (second !== first) {
      differing++;
      process.stderr.write(`second pass differs: ${instance.instance_id}\n`);
    }
    all.update(first).update('\n');
  } finally {
    repository.close();
  }
}
process.stderr.write(`${instances.length} instances, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
console.log(JSON.stringify({ instances: instances.length, rankedItems: items, hash: all.digest('hex'), secondPassDiffering: differing, secondPassNewStates: newStates }));
