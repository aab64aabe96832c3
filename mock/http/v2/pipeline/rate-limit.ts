// Step 6 (seed 000, Errors: 429 MCP_RATE_LIMITED "per-key rate limit exceeded"): a token bucket per
// key (docs/adr-0002: 120 requests per minute). The refusal carries the delay in its message and in
// `Retry-After`. Wall-clock time: a rate limit is about real traffic.
import type { RateLimiter } from './counters.ts';
import type { Failure } from './failure.ts';

/** docs/adr-0002: 120 requests per minute per key. */
export const DEFAULT_REQUESTS_PER_MINUTE = 120;

export class KeyRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    /** Requests per minute per key; 0 turns the limit off. */
    readonly perMinute = DEFAULT_REQUESTS_PER_MINUTE,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /**
   * How many requests the key's bucket holds against it now (admin API, getLimits): the tokens spent
   * and not yet refilled, rounded up; at `perMinute` the next request is refused.
   */
  held(keyId: string): number {
    const bucket = this.buckets.get(keyId);
    if (!bucket || this.perMinute <= 0) return 0;
    const tokens = Math.min(
      this.perMinute,
      bucket.tokens + (this.nowMs() - bucket.at) * (this.perMinute / 60_000),
    );
    return Math.max(0, Math.ceil(this.perMinute - tokens - 1e-9));
  }

  /** Gives the keys full buckets again (admin API, resetLimits). */
  reset(keyIds: Iterable<string>): void {
    for (const id of keyIds) this.buckets.delete(id);
  }

  /** Gives every key a full bucket again. */
  clear(): void {
    this.buckets.clear();
  }

  take(keyId: string): Failure | null {
    if (this.perMinute <= 0) return null;
    const now = this.nowMs();
    const perMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(keyId) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    this.buckets.set(keyId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return rateLimited(this.perMinute, bucket.tokens);
  }
}

/** The refusal of a request that found `tokens` (less than one) in its key's bucket. */
export function rateLimited(perMinute: number, tokens: number): Failure {
  const retryAfter = Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute));
  return {
    status: 429,
    code: 'MCP_RATE_LIMITED',
    message: `Rate limit of ${perMinute} requests per minute exceeded, retry after ${retryAfter}s.`,
    retryAfter,
  };
}
