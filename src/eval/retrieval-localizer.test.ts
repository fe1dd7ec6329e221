import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRetrievalLocalizer } from './retrieval-localizer.js';

const SHIPPED = join(import.meta.dirname, '..', '..', 'models', 'ranker.json');
/** The sha256 of the model's JSON as the model file holds it (train-trees writes it with JSON.stringify). */
const DIGEST = createHash('sha256').update(JSON.stringify(JSON.parse(readFileSync(SHIPPED, 'utf8')))).digest('hex');

describe('the retrieval localizer', () => {
  it('records the ranker that orders its predictions and, when it reads a model, the model\'s sha256', async () => {
    const facts = async (settings: Record<string, unknown>) => {
      const localizer = await createRetrievalLocalizer({ mode: 'retrieval', settings });
      await localizer.close?.();
      return localizer.runFacts;
    };
    expect(await facts({})).toEqual({ ranker: 'auto', rankerModel: DIGEST });
    expect(await facts({ ranker: 'learned' })).toEqual({ ranker: 'learned', rankerModel: DIGEST });
    expect(await facts({ ranker: 'hand' })).toEqual({ ranker: 'hand' });
    // The plain baseline has no ranker to record.
    expect(await facts({ queryMode: 'plain' })).toEqual({});
  });
});
