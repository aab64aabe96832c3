// Step 6 (seed 000, Errors: 429 MCP_RATE_LIMITED "per-key rate limit exceeded"): a token bucket per
// key (docs/adr-0002: 120 requests per minute). The refusal carries the delay in its message and in
// `Retry-After`. Wall-clock time: a rate limit is about real traffic.
import type { Failure } from './failure.ts';

export class KeyRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    /** Requests per minute per key; 0 turns the limit off. */
    readonly perMinute = 120,
    private readonly nowMs: () => number = Date.now,
  ) {}

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
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    return {
      status: 429,
      code: 'MCP_RATE_LIMITED',
      message: `Rate limit of ${this.perMinute} requests per minute exceeded, retry after ${retryAfter}s.`,
      retryAfter,
    };
  }
}
