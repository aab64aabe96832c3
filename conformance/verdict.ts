// The plain types of a verdict and a run's result: what a check answers, what the runner reports, the
// limit a 429 names. A leaf: it imports nothing of the suite, so every module may use it (types.ts,
// which types a check by its context, re-exports it for the checks).

/** MUST: what a seed documents. SHOULD: what the kit assumed where a seed says "not shown". */
export type Level = 'MUST' | 'SHOULD';

/**
 * - `pass`, `fail`: the verdict.
 * - `skip`: not run, because the configuration lacks what it needs (the reason names the flag).
 * - `incomplete`: ran, but could not reach a verdict: nothing on the deployment to act on, an answer
 *   in a shape only the kit assumed, the deployment's limits ("retry after N s"), the run's budget.
 * A MUST that is skipped or incomplete makes the whole run incomplete, never green.
 */
export type Status = 'pass' | 'fail' | 'skip' | 'incomplete';

export interface Evidence {
  expected?: string;
  received?: string;
  schemaErrors?: string[];
  /** A curl line that reproduces the request (keys replaced by placeholders). */
  curl?: string;
}

export interface Verdict {
  status: Status;
  /** Why it failed, was skipped or is incomplete, in a sentence. */
  reason?: string;
  evidence?: Evidence;
  /** Seconds until the deployment's limits let the check run again. */
  retryAfter?: number;
  blockedBy?: string;
  limit?: LimitInfo;
}

export interface Result {
  id: string;
  area: string;
  level: Level;
  rules: string[];
  /** Where the requirement comes from, for a reader: seed and section, or the kit's assumption. */
  source: string;
  title: string;
  status: Status;
  reason?: string;
  evidence?: Evidence;
  retryAfter?: number;
  /**
   * Skipped because an opt-in was not given: the flag that would run it; or not applicable, because
   * the deployment gives no keys to a role the check acts as (`--role-key ROLE=none`). Either way no
   * obstacle to a passed run.
   */
  optIn?: string;
  /**
   * Not judged because a shared fixture or discovery it needs failed in an earlier check: that
   * check's id. The failure counts once, there; this result is `incomplete` and names it.
   */
  blockedBy?: string;
  /** Refused by one of the deployment's limits (seed 000, Limits; Errors: 429): which, and when it ends. */
  limit?: LimitInfo;
  durationMs: number;
}

/** One of the deployment's limits, read from a 429 (seed 000, Limits; Authentication). */
export interface LimitInfo {
  /**
   * `ai-quota-key`: the key's daily AI quota (5 calls); `ai-quota-tenant`: the workspace's (50);
   * `rate`: the per-key rate limit; `failed-logins`: the lockout of this address after failed logins;
   * `unknown`: a 429 the suite cannot place.
   */
  kind: 'ai-quota-key' | 'ai-quota-tenant' | 'rate' | 'failed-logins' | 'unknown';
  /** When it ends, as the deployment said or as the retry delay gives it (ISO 8601, UTC). */
  resetsAt?: string;
}
