// What a run is configured with (the CLI's flags, runConformance's options): the settings, the roles a
// `--role-key` stands for and the licence states a `--tenant-key` stands for. Plain values and types,
// below everything that reads them (the preflight, the context, the checks), so no import comes back.
import type { Baseline } from './baseline.ts';

export interface ConformanceConfig {
  baseUrl: string;
  apiKey?: string;
  mcpKeys: string[];
  mcpUrl?: string;
  allowWrites: boolean;
  /** Substring or glob (`*`) of check ids to run. */
  only?: string;
  /** Substring or glob of check ids not to run. */
  skip?: string;
  rate?: number;
  /** v1 API id of a user who is expert on some course (the 422 ban rule); the mock's demo has `otto`. */
  expertUserId?: string;
  timeoutMs?: number;
  /** The role alias of the users the suite creates (seed 001 does not list the roles); `learner`. */
  roleAlias?: string;
  /** Between two polls of a generation job; seed 000 says every 3-5 seconds (the default, 3 s). */
  pollIntervalMs?: number;
  /**
   * Read + write MCP keys of users of other roles (`--role-key ROLE=KEY`): `manager`, `author`,
   * `learner`. With them the suite checks permissions, the role hierarchy and `course_edit` on a
   * course; without them those MUSTs do not run and the run is incomplete. `none` for a role
   * (`--role-key learner=none`) says the deployment gives no keys to that role (seed 000, Resources >
   * MCP key: keys are created by an admin): its checks are not applicable, listed, and no obstacle to
   * a passed run.
   */
  roleKeys?: Record<string, string>;
  /** A course chain owned by the read + write key's owner (`--chain ID`), for assign_chain. */
  chainId?: number;
  /**
   * Opt-in: keys of tenants in other licence states (`--tenant-key read=KEY`, `none=KEY`,
   * `no-ai=KEY`) and a revoked key (`--revoked-key KEY`). Without them those checks are "not opted
   * in": listed, and no obstacle to a passed run.
   */
  tenantKeys?: Partial<Record<LicenceState, string>>;
  revokedKey?: string;
  /** Opt-in (`--probe-limits`): provoke the rate limit, the failed-login limit and a key's AI quota. */
  probeLimits?: boolean;
  /**
   * Opt-in (`--upload-dir DIR`): a directory this machine writes and the tool server reads (its
   * `--upload-root`), for upload_source_material's file path.
   */
  uploadDir?: string;
  /**
   * Expected failures (`--baseline FILE`, conformance/baseline.ts): MUST failures it lists do not fail
   * the run; the reports show what is newly failing and what it lists that now passes.
   */
  baseline?: Baseline;
}

/** The licence states a `--tenant-key` stands for (seed 000, Tenant restrictions, Authentication 4). */
export const LICENCE_STATES = ['read', 'none', 'no-ai'] as const;
export type LicenceState = (typeof LICENCE_STATES)[number];

/** The roles a `--role-key` stands for. */
export const ROLES = ['manager', 'author', 'learner'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The value of a `--role-key` that declares the deployment gives no keys to that role: seed 000 says a
 * key's owner is "the user who created it (an admin)" (Resources > MCP key), so a deployment may
 * hand out no key of a learner at all. That role's checks are then not applicable.
 */
export const NO_KEYS = 'none';
