/**
 * Checks a ranked answer against the repository the agent looked at: a file
 * must exist in the view, and a function or module must name something the
 * index defines in that file. A function is kept only when its name, read
 * as written (`Catalogue.find_by_isbn`), is the qualified name of a symbol
 * the index found in that file, or its tail after a dot (`find_by_isbn`
 * names `Catalogue.find_by_isbn`): `inventory/stock.py:Catalogue.find_by_isbn`
 * is dropped when stock.py only calls it, defines it in another class, or
 * defines it at the top level. A module (`path:Catalogue`) is read by its
 * first part, which the file must define (a module read off a bare method
 * name, `path:total`, names the method the file defines). Without an index, or for a file the
 * index parsed no symbols of, the name's last part must occur in the file's
 * text as a whole word. Names that fail are dropped and counted, so a reply
 * cut mid-word (`billing/invoice.py:parse_disc`) or an invented path never
 * reaches the scorer or the user. Plain text work on the view's files: it
 * serves every interface, with or without an index.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { containsName, namesDefinition } from '../ask/index.js';
import type { RankedAnswer } from './answer-format.js';

/** The kept answer and what was dropped (as written in the answer). */
export interface CheckedAnswer {
  answer: RankedAnswer;
  dropped: string[];
}

/** The qualified names (`Cart.apply_discount`) of the symbols the index defines in a file (empty when it parsed none). */
export type DefinedNames = (path: string) => ReadonlySet<string>;

/** Drops the entries of `answer` that do not exist under `root` (see the module comment). Never throws. */
export async function checkAnswerAgainstRepository(answer: RankedAnswer, root: string, definedNames?: DefinedNames): Promise<CheckedAnswer> {
  const texts = new Map<string, Promise<string | null>>();
  const text = (path: string): Promise<string | null> => {
    let pending = texts.get(path);
    if (!pending) {
      // A `..` segment could leave the view; such a path is not a repository file.
      pending = path.split('/').includes('..') ? Promise.resolve(null) : readFile(join(root, path), 'utf8').catch(() => null);
      texts.set(path, pending);
    }
    return pending;
  };
  const dropped: string[] = [];
  const keepFiles: string[] = [];
  for (const file of answer.files) {
    if ((await text(file)) !== null) keepFiles.push(file);
    else dropped.push(file);
  }
  const keepNamed = async (entries: string[], part: 'first' | 'last'): Promise<string[]> => {
    const kept: string[] = [];
    for (const entry of entries) {
      const colon = entry.indexOf(':');
      const body = await text(entry.slice(0, colon));
      const name = entry.slice(colon + 1);
      const defined = body === null ? null : safeDefined(definedNames, entry.slice(0, colon));
      // Without parsed symbols the text decides: containsName checks the last dotted part; a module is named by its first.
      const ok = body !== null && (defined && defined.size > 0 ? namesDefinition(part === 'first' ? name.split('.')[0]! : name, defined) : containsName(body, part === 'first' ? name.split('.')[0]! : name));
      if (ok) kept.push(entry);
      else dropped.push(entry);
    }
    return kept;
  };
  const functions = await keepNamed(answer.functions, 'last');
  const modules = await keepNamed(answer.modules, 'first');
  return { answer: { files: keepFiles, modules, functions }, dropped: [...new Set(dropped)] };
}

function safeDefined(definedNames: DefinedNames | undefined, path: string): ReadonlySet<string> | null {
  if (!definedNames) return null;
  try {
    return definedNames(path);
  } catch {
    // An index that cannot answer leaves the text check in charge.
    return null;
  }
}
