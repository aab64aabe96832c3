// Memory that stays put under a long mixed load (docs/architecture.md, "A request through the mock"):
// the answer cache and the failed-login limit stay within their bounds whatever is asked, and every way of
// starting lmskit bounds V8's young generation alike. Counts, not timings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lmskitNodeFlags } from '../../bench/node-flags.ts';
import { ROOT } from '../../lib/paths.ts';
import { AnswerCache } from '../../mock/http/answer-cache.ts';
import { FailedAuthLimiter } from '../../mock/http/v2/pipeline/failed-auth-limit.ts';

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

  it('admits a key the second time it is asked for, and remembers at most four times its entries asked once', () => {
    const cache = new AnswerCache(10, 1_000_000);
    expect(cache.admits('a')).toBe(false);
    expect(cache.admits('a')).toBe(true);
    for (let i = 0; i < 10_000; i++) expect(cache.admits(`once${i}`)).toBe(false);
    // The set started over on the way: the earliest keys asked once are forgotten, the latest remembered.
    expect(cache.admits('once9999')).toBe(true);
    expect(cache.admits('once0')).toBe(false);
  });

  it('starts over when the epoch (state version, virtual second) changes: older answers are never served again', () => {
    const cache = new AnswerCache(1000, 1_000_000);
    cache.enter('v1|t0');
    cache.set('k', answer(500));
    cache.admits('asked');
    cache.enter('v1|t0');
    expect(cache.get('k')?.body).toHaveLength(500);
    cache.enter('v2|t0');
    expect(cache.size).toEqual({ entries: 0, chars: 0 });
    expect(cache.get('k')).toBeUndefined();
    // What was asked once in the old epoch does not count as a first ask in the new one.
    expect(cache.admits('asked')).toBe(false);
  });
});

describe("V8's heap and threads are sized the same wherever lmskit starts", () => {
  it('bin/lmskit.js, `npm start` and the bench start Node with the same V8 flags', () => {
    const flags = lmskitNodeFlags();
    expect(flags).toContain('--max-semi-space-size=4');
    expect(flags).toContain('--initial-old-space-size=32');
    expect(flags).toContain('--v8-pool-size=2');
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(scripts.start).toBe(`node ${flags.join(' ')} bin/lmskit.js mock`);
  });
});

describe('the failed-login limit forgets IPs whose window has passed (seed 000, Errors: MCP_AUTH_RATE_LIMITED)', () => {
  it('keeps at most twice as many IPs as failed within the window, however many failed before', () => {
    let now = 0;
    const limiter = new FailedAuthLimiter(20, 300, () => now);
    for (let phase = 0; phase < 10; phase++) {
      now += 301_000; // the window of every earlier failure has passed
      for (let i = 0; i < 10_000; i++) limiter.fail(`10.${phase}.${i >> 8}.${i & 255}`);
    }
    expect(limiter.trackedIps).toBeGreaterThanOrEqual(10_000);
    expect(limiter.trackedIps).toBeLessThanOrEqual(20_000);
    // The IPs failing now are still counted.
    for (let i = 0; i < 19; i++) limiter.fail('10.9.0.1');
    expect(limiter.check('10.9.0.1')).toMatchObject({ status: 429, code: 'MCP_AUTH_RATE_LIMITED' });
  });
});
