// The failed-login table is bounded in entries and bytes (failed-auth-limit.ts; docs/mock.md, Bounds):
// at most MAX_CLIENTS addresses, each cut to a short key with its last `max` failures, the address
// that failed longest ago making room — so the clients failing now are still counted.
import { describe, expect, it } from 'vitest';
import { FailedAuthLimiter, MAX_CLIENTS } from './failed-auth-limit.ts';

describe('FailedAuthLimiter bounds', () => {
  it(`keeps at most ${MAX_CLIENTS} addresses within one window, and still refuses the one failing now`, () => {
    const now = 0;
    const limiter = new FailedAuthLimiter(20, 300, () => now);
    for (let i = 0; i < 19; i++) limiter.fail('203.0.113.7');
    for (let i = 0; i < 3 * MAX_CLIENTS; i++) limiter.fail(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
    expect(limiter.trackedIps).toBe(MAX_CLIENTS);
    // The first address failed longest ago and made room; failing again starts it over.
    expect(limiter.check('203.0.113.7')).toBeNull();
    for (let i = 0; i < 20; i++) limiter.fail('203.0.113.7');
    expect(limiter.check('203.0.113.7')).toMatchObject({ status: 429, code: 'MCP_AUTH_RATE_LIMITED' });
    expect(limiter.trackedIps).toBe(MAX_CLIENTS);
  });

  it('a long key is cut, so any text costs at most a short key; a client keeps its last failures only', () => {
    const now = 0;
    const limiter = new FailedAuthLimiter(20, 300, () => now);
    const long = 'x'.repeat(10_000);
    for (let i = 0; i < 1000; i++) limiter.fail(`${long}${i}`);
    expect(limiter.trackedIps).toBe(1);
    expect(limiter.check(long)).toMatchObject({ status: 429 });
    const held = (limiter as unknown as { failures: Map<string, number[]> }).failures;
    for (const [key, times] of held) {
      expect(key.length).toBeLessThanOrEqual(64);
      expect(times.length).toBeLessThanOrEqual(20);
    }
  });
});
