import { createHash } from 'node:crypto';

/**
 * Git's blob id of some bytes, so working-tree and commit indexes share parses.
 * Apart from the indexer so parse workers compute it without loading the index layer.
 */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
