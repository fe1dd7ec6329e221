/**
 * The learned ranker's model shipped in the package. This file sits two folders
 * below the package root in both builds (dist/retrieve/ and the CLI bundle's
 * dist/cli/), so one relative URL finds `models/ranker.json` from either.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ReponavError } from '../errors.js';
import { loadRankerModel, type RankerModel } from './learned/learned-ranker.js';

let shipped: RankerModel | undefined;
let shippedDigest: string | undefined;

const SHIPPED_PATH = () => fileURLToPath(new URL('../../models/ranker.json', import.meta.url));

/** The shipped model, read and checked once per process; INSTALLATION_INCOMPLETE when it is missing or malformed. */
export function shippedRankerModel(): RankerModel {
  if (shipped) return shipped;
  try {
    shipped = loadRankerModel(SHIPPED_PATH());
  } catch (error) {
    throw new ReponavError('INSTALLATION_INCOMPLETE', `${(error as Error).message.replace(/\.$/, '')}; reinstall reponav, or search with --ranker hand.`);
  }
  return shipped;
}

/**
 * The sha256 of the shipped model file, read once per process: an evaluation
 * run records it, so resuming a run over another model is refused instead of
 * mixing two rankings in one predictions file. Fails like {@link shippedRankerModel}.
 */
export function shippedRankerDigest(): string {
  if (shippedDigest) return shippedDigest;
  shippedRankerModel();
  shippedDigest = createHash('sha256').update(readFileSync(SHIPPED_PATH())).digest('hex');
  return shippedDigest;
}
