// The answer cache stays within its bounds whatever is asked (docs/architecture.md, "A request
// through the mock", step 6): memory that stays put under a long mixed load, not a timing.
import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../mock/http/answer-cache.ts';

const answer = (chars: number) => ({ type: 'application/json', body: 'x'.repeat(chars) });

describe('the answer cache is bounded', () => {
  it('keeps at most its number of entries, the oldest leaving first', () => {
    const cache = new AnswerCache(10, 1_000_000);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, answer(10));
    expect(cache.size.entries).toBe(10);
    expect(cache.get('k89')).toBeUndefined();
    expect(cache.get('k90')?.body).toHaveLength(10);
  });

  it('keeps at most its characters, however few entries that makes', () => {
    const cache = new AnswerCache(1000, 10_000);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, answer(1_000));
    expect(cache.size.chars).toBeLessThanOrEqual(10_000);
    expect(cache.size.entries).toBe(10);
    expect(cache.get('k99')).toBeDefined();
  });

  it('does not keep an answer larger than an eighth of the budget, and counts a replaced one once', () => {
    const cache = new AnswerCache(1000, 8_000);
    cache.set('big', answer(1_001));
    expect(cache.get('big')).toBeUndefined();
    cache.set('same', answer(500));
    cache.set('same', answer(700));
    expect(cache.size).toEqual({ entries: 1, chars: 700 });
  });
});
