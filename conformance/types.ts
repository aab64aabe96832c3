// The conformance suite's vocabulary. A check is a small named unit with one signature: it gets the
// context, and answers a verdict with evidence. It names the seed rules it covers (ids of the
// rule catalogue, docs/requirements/rules.yaml), so a reader can trace every verdict to a sentence of
// a seed.

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

/** What a check needs; a check whose needs are not met is skipped, saying which flag would run it. */
export interface Needs {
  apiKey?: boolean;
  /** An MCP key whose effective scopes include this one. */
  mcpScope?: 'read' | 'write';
  /** An MCP key with the read scope and without the write scope. */
  readOnlyKey?: boolean;
  /** Writes allowed (`--allow-writes`). */
  writes?: boolean;
  mcpUrl?: boolean;
  /** Named values from the configuration (e.g. `expertUserId`). */
  config?: string[];
  /** Keys of users of these roles (`--role-key ROLE=KEY`). */
  roles?: string[];
  /**
   * With `roles`: the check acts as each role that has a key, and leaves out a role the deployment
   * gives no keys to (`--role-key ROLE=none`) instead of being not applicable as a whole.
   */
  eachRole?: boolean;
  /**
   * Opt-in: a key of a tenant in this licence state (`--tenant-key STATE=KEY`), a revoked key
   * (`--revoked-key`), or leave to provoke the deployment's limits (`--probe-limits`). Not opted
   * in, the check is skipped as such and does not make the run incomplete.
   */
  tenantKey?: import('./context.ts').LicenceState;
  revokedKey?: boolean;
  probeLimits?: boolean;
  /** A directory shared with the tool server (`--upload-dir`). */
  uploadDir?: boolean;
}

export interface Check {
  /** Stable id: `<api>.<area>.<subject>.<rule>`, e.g. `v1.users.create.duplicate-email`. */
  id: string;
  /** The area it is reported under, e.g. `v1.users`. */
  area: string;
  level: Level;
  /** Ids of the seed rules it covers (docs/requirements/rules.yaml). */
  rules: string[];
  /** For a SHOULD: the choice the kit made where the seed says "not shown". */
  assumption?: string;
  title: string;
  needs?: Needs;
  run: (ctx: import('./context.ts').Context) => Promise<Verdict>;
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
