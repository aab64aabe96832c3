// The /api/v2 request pipeline (docs/mock.md, The MCP backend), in this order, each step its own module:
// authenticate (with the per-IP failed-attempt limit) → licence tier → write scope → AI switch →
// per-key rate limit → permission → AI quota. The first step that refuses answers the request.
import type { Caller } from '../../../domain/access.ts';
import type { Platform } from '../../../domain/platform.ts';
import { checkAiQuota } from './ai-quota.ts';
import { authenticate, isFailure, stampUse } from './authenticate.ts';
import type { FailedLoginLimiter, RateLimiter } from './counters.ts';
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
  private readonly failedAuth: FailedLoginLimiter;
  private readonly rate: RateLimiter;

  constructor(
    private readonly platform: Platform,
    limits: PipelineLimits = {},
    /** Shared with the admin API, which shows and resets the counters; one of its own otherwise. */
    rate?: RateLimiter,
    /** The failed logins, when they are counted elsewhere (a shared store); in this process otherwise. */
    failedAuth?: FailedLoginLimiter,
  ) {
    this.failedAuth =
      failedAuth ?? new FailedAuthLimiter(limits.failedAuthMax, limits.failedAuthWindowSeconds, limits.nowMs);
    this.rate = rate ?? new KeyRateLimiter(limits.requestsPerMinute, limits.nowMs);
  }

  /**
   * Forgets the failed logins and the rate-limit buckets: after a reset or an imported snapshot they
   * describe traffic to a platform that no longer exists (docs/mock.md, the admin API: reset).
   * Settles once they are forgotten (at once in this process; a query in a shared store).
   */
  forgetCounters(): Promise<unknown> | undefined {
    const cleared = [this.failedAuth.clear(), this.rate.clear()].filter((c) => c instanceof Promise);
    return cleared.length ? Promise.all(cleared) : undefined;
  }

  /**
   * The first steps: the failed-login limit and the key (docs/mock.md, The MCP backend). The contract
   * router runs them before it reads a body, the rest (`admit`) after, so a client without a valid key
   * never has its body held.
   * `ip` is asked for only when it matters (some IP has failed, or this request fails): working out
   * the client's address through `trust proxy` showed in every request's profile (bench/RESULTS.md).
   * A promise when the counters are in a shared store.
   */
  authenticate(key: string | undefined, ip: () => string): Verdict {
    const blocked = this.failedAuth.watching ? this.failedAuth.check(ip()) : null;
    if (blocked instanceof Promise) return blocked.then((refused) => refused ?? this.verify(key, ip));
    return blocked ?? this.verify(key, ip);
  }

  private verify(key: string | undefined, ip: () => string): Verdict {
    const caller = authenticate(this.platform, key);
    if (!isFailure(caller)) {
      const stamped = stampUse(this.platform, caller);
      return stamped ? stamped.then(() => caller) : caller;
    }
    // Only a presented key that does not verify is a failed attempt: the limit guards against key
    // guessing, and a request without a key guesses nothing (it still gets 401).
    if (!key) return caller;
    const counted = this.failedAuth.fail(ip());
    return counted instanceof Promise ? counted.then(() => caller) : caller;
  }

  /**
   * The remaining steps for an authenticated caller: licence, scope, AI switch, rate, permission, quota.
   * A promise when the counters are in a shared store.
   */
  admit(caller: Caller, operation: Operation): Verdict {
    const refused =
      checkLicence(caller) ?? checkWriteScope(caller, operation) ?? checkAiAccess(caller, operation);
    if (refused) return refused;
    const limited = this.rate.take(caller.key.id);
    if (limited instanceof Promise) return limited.then((l) => l ?? this.lastSteps(caller, operation));
    return limited ?? this.lastSteps(caller, operation);
  }

  private lastSteps(caller: Caller, operation: Operation): Caller | Failure {
    return (
      checkPermission(caller, operation) ?? checkAiQuota(caller, operation, this.platform.now()) ?? caller
    );
  }
}

/** What a step of the pipeline answers: the caller, admitted so far, or the refusal. */
export type Verdict = Caller | Failure | Promise<Caller | Failure>;

export { isFailure };
