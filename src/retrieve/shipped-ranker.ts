/**
 * The learned ranker's model shipped in the package. This file sits two folders
 * below the package root in both builds (dist/retrieve/ and the CLI bundle's
 * dist/cli/), so one relative URL finds `models/ranker.json` from either.
 */
import { fileURLToPath } from 'node:url';
import { ReponavError } from '../errors.js';
import { loadRankerModel, type RankerModel } from './learned/learned-ranker.js';

let shipped: RankerModel | undefined;

/** The shipped model, read and checked once per process; INSTALLATION_INCOMPLETE when it is missing or malformed. */
export function shippedRankerModel(): RankerModel {
  if (shipped) return shipped;
  try {
    shipped = loadRankerModel(fileURLToPath(new URL('../../models/ranker.json', import.meta.url)));
  } catch (error) {
    throw new ReponavError('INSTALLATION_INCOMPLETE', `${(error as Error).message.replace(/\.$/, '')}; reinstall reponav, or search with --ranker hand.`);
  }
  return shipped;
}
