// The /api/v2 request pipeline (docs/mock.md, The MCP backend), in this order, each step its own module:
// authenticate (with the per-IP failed-attempt limit) → licence tier → write scope → AI switch →
// per-key rate limit → permission → AI quota. The first step that refuses answers the request.
import type { Caller } from '../../../domain/access.ts';
import type { Platform } from '../../../domain/platform.ts';
import { checkAiQuota } from './ai-quota.ts';
import { authenticate, isFailure } from './authenticate.ts';
import { FailedAuthLimiter } from './failed-auth-limit.ts';
import type { Failure } from './failure.ts';
import { checkAiAccess, checkLicence, checkWriteScope } from './licence.ts';
import { checkPermission } from './permission.ts';
import { KeyRateLimiter } from './rate-limit.ts';

export type { Failure };

export interface PipelineLimits {
  /** Per key per minute; 0 = unlimited. */
  requestsPerMinute?: number;
  failedAuthMax?: number;
  failedAuthWindowSeconds?: number;
  /**
   * The wall clock both limits count time on, in milliseconds (default `Date.now`): a test of a
   * small bucket freezes it, so its verdict does not depend on how fast the requests go.
   */
  nowMs?: () => number;
}

export interface Operation {
  operationId?: string;
  'x-scope'?: string;
  'x-permission'?: string | null;
  'x-licence'?: { mcpAccess?: string; mcpAiAccess?: boolean };
  'x-ai-quota'?: boolean;
}

export class Pipeline {
  private readonly failedAuth: FailedAuthLimiter;
  private readonly rate: KeyRateLimiter;

  constructor(
    private readonly platform: Platform,
    limits: PipelineLimits = {},
    /** Shared with the admin API, which shows and resets the counters; one of its own otherwise. */
    rate?: KeyRateLimiter,
  ) {
    this.failedAuth = new FailedAuthLimiter(
      limits.failedAuthMax,
      limits.failedAuthWindowSeconds,
      limits.nowMs,
    );
    this.rate = rate ?? new KeyRateLimiter(limits.requestsPerMinute, limits.nowMs);
  }

  /**
   * Forgets the failed logins and the rate-limit buckets: after a reset or an imported snapshot they
   * describe traffic to a platform that no longer exists (docs/mock.md, the admin API: reset).
   */
  forgetCounters(): void {
    this.failedAuth.clear();
    this.rate.clear();
  }

  /**
   * The first steps: the failed-login limit and the key (docs/mock.md, The MCP backend). The contract
   * router runs them before it reads a body, the rest (`admit`) after, so a client without a valid key
   * never has its body held.
   * `ip` is asked for only when it matters (some IP has failed, or this request fails): working out
   * the client's address through `trust proxy` showed in every request's profile (bench/RESULTS.md).
   */
  authenticate(key: string | undefined, ip: () => string): Caller | Failure {
    const blocked = this.failedAuth.trackedIps > 0 ? this.failedAuth.check(ip()) : null;
    if (blocked) return blocked;
    const caller = authenticate(this.platform, key);
    // Only a presented key that does not verify is a failed attempt: the limit guards against key
    // guessing, and a request without a key guesses nothing (it still gets 401).
    if (isFailure(caller) && key) this.failedAuth.fail(ip());
    return caller;
  }

  /** The remaining steps for an authenticated caller: licence, scope, AI switch, rate, permission, quota. */
  admit(caller: Caller, operation: Operation): Caller | Failure {
    return (
      checkLicence(caller) ??
      checkWriteScope(caller, operation) ??
      checkAiAccess(caller, operation) ??
      this.rate.take(caller.key.id) ??
      checkPermission(caller, operation) ??
      checkAiQuota(caller, operation, this.platform.now()) ??
      caller
    );
  }

  /** Every step in order. */
  run(key: string | undefined, ip: () => string, operation: Operation): Caller | Failure {
    const caller = this.authenticate(key, ip);
    return isFailure(caller) ? caller : this.admit(caller, operation);
  }
}

export { isFailure };
