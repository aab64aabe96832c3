// The conformance suite's vocabulary. A check is a small named unit with one signature: it gets the
// context, and answers a verdict with evidence. It names the seed rules it covers (ids of the
// rule catalogue, docs/requirements/rules.yaml), so a reader can trace every verdict to a sentence of
// a seed.

import type { LicenceState } from './config.ts';
import type { Context } from './context.ts';
import type { Level, Verdict } from './verdict.ts';

// The vocabulary of a verdict lives in the leaf ./verdict.ts (modules below the context import it from
// there, so no import comes back here); the checks find it here with the rest.
export type { Evidence, Level, LimitInfo, Result, Status, Verdict } from './verdict.ts';

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
  tenantKey?: LicenceState;
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
  run: (ctx: Context) => Promise<Verdict>;
}
