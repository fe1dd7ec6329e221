import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { classifyReply, isCutReason, outcomeSentence, type ReplyOutcome } from './reply-outcome.js';

const NORMAL = ['stop', 'tool_calls', 'function_call', 'end_turn', 'tool_use', 'stop_sequence'];
const OTHERS = ['length', 'max_tokens', 'model_context_window_exceeded', 'content_filter', 'refusal', 'pause_turn', 'eos', 'finished', 'error', 'null', '', 'stopped', 'end', 'recitation', 'safety'];

function recase(word: string, random: () => number): string {
  return [...word].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join('');
}

describe('classifyReply', () => {
  it('reads the documented stops, any casing', () => {
    expect(classifyReply({ finishReason: 'STOP', hasContent: true })).toBe('complete');
    expect(classifyReply({ finishReason: 'End_Turn', hasContent: true })).toBe('complete');
    expect(classifyReply({ finishReason: 'LENGTH', hasContent: true })).toBe('cut');
    expect(classifyReply({ finishReason: 'MAX_TOKENS', hasContent: false })).toBe('cut');
    expect(classifyReply({ finishReason: 'content_filter', hasContent: true })).toBe('filtered');
    expect(classifyReply({ finishReason: 'refusal', hasContent: true })).toBe('refused');
    expect(classifyReply({ finishReason: 'pause_turn', hasContent: true })).toBe('paused');
    expect(classifyReply({ finishReason: 'stop', hasContent: false })).toBe('empty');
  });

  it('never takes a missing stop reason as finished', () => {
    expect(classifyReply({ finishReason: null, hasContent: true })).toBe('unknown');
    expect(classifyReply({ finishReason: undefined, hasContent: true })).toBe('unknown');
  });

  it('a refusal field wins over a normal stop', () => {
    expect(classifyReply({ finishReason: 'stop', hasContent: true, refusal: "I'm sorry, I can't help with that." })).toBe('refused');
    expect(classifyReply({ finishReason: 'stop', hasContent: true, refusal: null })).toBe('complete');
  });

  it('generated stop reasons: complete only for a documented normal stop with content (seeded)', () => {
    const seed = 4101;
    const random = mulberry32(seed);
    for (let i = 0; i < 2000; i++) {
      const pool = random() < 0.5 ? NORMAL : OTHERS;
      const base = pool[Math.floor(random() * pool.length)]!;
      const reason = random() < 0.1 ? null : recase(base, random);
      const hasContent = random() < 0.8;
      const outcome: ReplyOutcome = classifyReply({ finishReason: reason, hasContent });
      const normal = reason !== null && NORMAL.includes(reason.toLowerCase());
      const where = `seed ${seed}, case ${i}: ${JSON.stringify(reason)} content=${hasContent}`;
      expect(outcome === 'complete', where).toBe(normal && hasContent);
      expect(outcome === 'cut', where).toBe(isCutReason(reason));
      if (outcome !== 'complete' && outcome !== 'cut') expect(outcomeSentence(outcome, reason), where).toMatch(/^[^.]+$/);
    }
  });
});
