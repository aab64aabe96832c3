// Where the pipeline's two counters count (docs/mock.md, The MCP backend; Shared sandbox): the per-key
// rate limit and the failed logins per client. In this process by default (rate-limit.ts,
// failed-auth-limit.ts: synchronous, no cost beyond a map); in a shared store, one count for every
// replica (../../../store/postgres-limits.ts: each step a query, so answers may be promises).
import type { Failure } from './failure.ts';

/** A token bucket per key (docs/adr-0002: 120 requests per minute). */
export interface RateLimiter {
  /** Requests per minute per key; 0 turns the limit off. */
  readonly perMinute: number;
  /** Spends one request of the key's bucket, or refuses with 429 MCP_RATE_LIMITED. */
  take(keyId: string): Failure | null | Promise<Failure | null>;
  /** How many requests the key's bucket holds against it now (admin API, getLimits). */
  held(keyId: string): number | Promise<number>;
  /** Gives the keys full buckets again (admin API, resetLimits). */
  reset(keyIds: Iterable<string>): void | Promise<void>;
  /** Gives every key a full bucket again. */
  clear(): void | Promise<void>;
}

/** Failed logins per client address in a sliding window (docs/adr-0002: 20 per 5 minutes). */
export interface FailedLoginLimiter {
  /** Whether `check` may refuse anyone: while it cannot, a request's address need not be worked out. */
  readonly watching: boolean;
  /** Refuses with 429 MCP_AUTH_RATE_LIMITED an address past the threshold. */
  check(address: string): Failure | null | Promise<Failure | null>;
  fail(address: string): void | Promise<void>;
  clear(): void | Promise<void>;
}

/** Makes the two counters somewhere else than in this process (a shared store). */
export interface LimitCounters {
  rateLimiter(perMinute: number): RateLimiter;
  failedLogins(max: number, windowSeconds: number): FailedLoginLimiter;
}
