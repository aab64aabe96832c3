// What every check gets: the configuration, the deployment's two APIs with the right keys, the
// bundled contracts to judge answers against (whole, and their documented part), memoised
// discoveries, the run's budgets, and fixture cleanup.
import type { operations as V1Operations } from '../generated/v1.ts';
import type { operations as V2Operations } from '../generated/v2.ts';
import { loadTools } from '../lib/tool-schemas.ts';
import { Api, loadContract } from './api.ts';
import { type ConformanceConfig, NO_KEYS } from './config.ts';
import { type Exchange, HttpClient } from './http.ts';
import { Incomplete, KnockOn, Skipped } from './outcomes.ts';

// The checks import the API's vocabulary from here, with the rest of what they get, and the suite's
// callers the configuration's (its home is the leaf ./config.ts).
export {
  Api,
  type CallOptions,
  contractOf,
  evidenceOf,
  fail,
  loadContract,
  type Problems,
  pass,
  type TypedCallOptions,
} from './api.ts';
export { type ConformanceConfig, LICENCE_STATES, type LicenceState } from './config.ts';

/**
 * What one run may spend of the deployment's patience (docs/conformance.md, "Politeness"): requests
 * with a wrong key, which the platform counts per IP (seed 000, 429 MCP_AUTH_RATE_LIMITED), and calls
 * that count against the daily AI quota (seed 000, Limits: 5 per key, 50 per tenant).
 */
export const BUDGET = {
  failedLogins: 3,
  /** Per key: under the seed's 5 a day, so the limit probe of a key can still reach it. */
  aiCallsPerKey: 3,
  /** With --probe-limits: wrong keys sent to reach the failed-login limit, requests to reach the rate limit. */
  failedLoginProbe: 100,
  rateLimitProbe: 2000,
  /** With --revoked-key: the requests sent with it, on top of `failedLogins` (capabilities, one tool's backend). */
  revokedKeyRequests: 2,
} as const;

/** What a run spent of the deployment's patience; the reports print it. */
export interface Spent {
  failedLogins: number;
  aiCalls: number;
  /** AI calls by key (its last four characters), which the per-key quota counts. */
  aiCallsByKey: Record<string, number>;
  /** Requests sent to reach the per-key rate limit (--probe-limits). */
  rateLimitRequests: number;
}

export interface KeyInfo {
  key: string;
  /** The role it was given for (`--role-key`), if any. */
  role?: string;
  tier: string;
  scopes: { read: boolean; write: boolean };
  tools: string[];
  user: { id: number; name: string; email: string };
}

/** A tool's name and the backend operations it calls (mcp-schema `x-backend`). */
const TOOLS = loadTools();
export const toolsOf = (operationId: string) =>
  TOOLS.filter((t) => t['x-backend'].some((b) => b.operationId === operationId)).map((t) => t.name);

export class Context {
  readonly http: HttpClient;
  readonly v1: Api<V1Operations>;
  readonly v2: Api<V2Operations>;
  /** The MCP keys the deployment accepted, with what their capabilities say. */
  keys: KeyInfo[] = [];
  readonly spent: Spent = { failedLogins: 0, aiCalls: 0, aiCallsByKey: {}, rateLimitRequests: 0 };
  /** Keys of other roles (`--role-key`), accepted by the deployment, by role. */
  readonly roleKeys = new Map<string, KeyInfo>();
  /** AI calls a key may still make in this run; the quota probe lifts it for its own key. */
  private readonly aiAllowance = new Map<string, number>();
  /** Memoised fixtures and discoveries, each with the check that first asked for it (its owner). */
  private readonly memo = new Map<string, { value: Promise<unknown>; owner?: string }>();
  /** The id of the check running now (set by the runner): the owner of the fixtures it makes. */
  currentCheck?: string;
  private readonly cleanups: (() => Promise<Exchange | undefined>)[] = [];
  /** A prefix unique to this run, for the names of the fixtures it creates. */
  readonly runId = `lmskit${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

  constructor(readonly config: ConformanceConfig) {
    this.http = new HttpClient({ rate: config.rate, timeoutMs: config.timeoutMs });
    const base = config.baseUrl.replace(/\/+$/, '');
    this.v1 = new Api('v1', loadContract('v1'), `${base}/openapi/v1`, this.http);
    this.v2 = new Api('v2', loadContract('v2'), `${base}/api/v2`, this.http, (op, headers, answer) => {
      // Seed 000, Limits: "each call counts as one" — an AI call made, that is, one answered 2xx. A
      // call past the run's budget for its key is not sent; a refusal (403, 404) is not counted.
      if (!op['x-ai-quota']) return;
      const key = headers['x-mcp-key'];
      if (!key) return;
      if (!answer) this.checkAiBudget(key, op.operationId);
      else if (answer.status < 300) this.countAiCall(key);
    });
  }

  /**
   * Before a call that counts against the day's AI quota (seed 000, Limits: 5 per key): past the run's
   * budget for that key the check cannot run, and the call is not sent.
   */
  private checkAiBudget(key: string, what: string): void {
    const id = `…${key.slice(-4)}`;
    const allowed = this.aiAllowance.get(key) ?? BUDGET.aiCallsPerKey;
    if ((this.spent.aiCallsByKey[id] ?? 0) >= allowed)
      throw new Incomplete(`the run's budget of ${allowed} AI calls for key ${id} is spent (${what})`);
  }

  private countAiCall(key: string): void {
    const id = `…${key.slice(-4)}`;
    this.spent.aiCallsByKey[id] = (this.spent.aiCallsByKey[id] ?? 0) + 1;
    this.spent.aiCalls++;
  }

  /** Lets one key spend up to `calls` AI calls in this run (the quota probe, --probe-limits). */
  allowAiCalls(key: string, calls: number): void {
    this.aiAllowance.set(key, calls);
  }

  /** The run's budget of failed logins: `BUDGET.failedLogins`, and the revoked key's requests when one is given. */
  get failedLoginBudget(): number {
    return BUDGET.failedLogins + (this.config.revokedKey ? BUDGET.revokedKeyRequests : 0);
  }

  /**
   * Counts a request with a wrong key against the run's budget (or against `budget`: the failed-login
   * probe of --probe-limits has its own); past it the check cannot run.
   */
  spendFailedLogin(budget = this.failedLoginBudget): void {
    if (this.spent.failedLogins >= budget)
      throw new Incomplete(`the run's budget of ${budget} failed logins is spent`);
    this.spent.failedLogins++;
  }

  /** Why the MCP keys could not be read at all (the deployment's limits), if so. */
  keysBlocked?: Incomplete;

  /** Reads each MCP key's capabilities once (`--mcp-key`, then `--role-key`); a refused key is kept out. */
  async discoverKeys(): Promise<string[]> {
    const problems: string[] = [];
    const given = [
      ...this.config.mcpKeys.map((key) => ({ key, role: undefined as string | undefined })),
      ...this.givenRoleKeys().map(([role, key]) => ({ key, role })),
    ];
    for (const { key, role } of given) {
      let e: Exchange;
      try {
        e = await this.v2.call('getCapabilities', { headers: { 'x-mcp-key': key } });
      } catch (error) {
        if (!(error instanceof Incomplete)) throw error;
        this.keysBlocked = error;
        return [`MCP keys not read: ${error.message}`];
      }
      const body = e.body as Partial<KeyInfo> | undefined;
      if (e.status === 200 && body?.scopes && Array.isArray(body.tools) && body.user) {
        const info: KeyInfo = { key, ...(body as Omit<KeyInfo, 'key'>), ...(role ? { role } : {}) };
        if (role) this.roleKeys.set(role, info);
        else this.keys.push(info);
      } else {
        if (e.status === 401) this.spent.failedLogins++;
        problems.push(
          `${role ? `the ${role} key` : 'an MCP key'} ending …${key.slice(-4)} was refused (${e.status}); checks needing it are skipped`,
        );
      }
    }
    return problems;
  }

  /** A key whose effective scopes include `scope` (for read, a read-only key preferred). */
  key(scope: 'read' | 'write'): KeyInfo | undefined {
    return scope === 'write'
      ? this.keys.find((k) => k.scopes.write)
      : (this.keys.find((k) => k.scopes.read && !k.scopes.write) ?? this.keys.find((k) => k.scopes.read));
  }

  /** Every accepted key: those of `--mcp-key` and of `--role-key`. */
  allKeys(): KeyInfo[] {
    return [...this.keys, ...this.roleKeys.values()];
  }

  /** The role keys given as keys: `--role-key ROLE=none` gives none (the deployment has no keys for ROLE). */
  givenRoleKeys(): [role: string, key: string][] {
    return Object.entries(this.config.roleKeys ?? {}).filter(([, key]) => key !== NO_KEYS);
  }

  /** The roles the deployment gives no keys to (`--role-key ROLE=none`): their checks are not applicable. */
  rolesWithoutKeys(): string[] {
    return Object.entries(this.config.roleKeys ?? {})
      .filter(([, key]) => key === NO_KEYS)
      .map(([role]) => role);
  }

  /** The accepted key of a role (`--role-key ROLE=KEY`). */
  roleKey(role: string): KeyInfo | undefined {
    return this.roleKeys.get(role);
  }

  /** A key with the read scope and without the write scope. */
  readOnlyKey(): KeyInfo | undefined {
    return this.keys.find((k) => k.scopes.read && !k.scopes.write);
  }

  /**
   * A key offered a tool that calls this operation (so its owner has the permission and the tenant
   * the licence): a read-only key preferred for read operations. Undefined when no key is.
   */
  keyFor(operationId: string): KeyInfo | undefined {
    const tools = toolsOf(operationId);
    const offered = this.keys.filter((k) => tools.some((t) => k.tools.includes(t)));
    return offered.find((k) => !k.scopes.write) ?? offered[0];
  }

  v1Headers(): Record<string, string> {
    return this.config.apiKey ? { 'x-api-key': this.config.apiKey } : {};
  }

  /**
   * Computes a value once per run (e.g. an existing user id found by a search). The check that first
   * asks for it owns it: when it fails, that check reports the failure, and every later check that
   * needs it is not judged but "blocked by" the owner (a `KnockOn`), so one bad fixture counts once.
   * Not reaching a verdict (`Incomplete`, the deployment's limits) and a configuration's lack
   * (`Skipped`) pass through as they are: they are each check's own.
   */
  once<T>(name: string, compute: () => Promise<T>): Promise<T> {
    let entry = this.memo.get(name);
    if (!entry) {
      entry = { value: compute(), ...(this.currentCheck ? { owner: this.currentCheck } : {}) };
      this.memo.set(name, entry);
    }
    const { value, owner } = entry;
    if (!owner || owner === this.currentCheck) return value as Promise<T>;
    return (value as Promise<T>).catch((error: unknown) => this.blame(name, error));
  }

  /**
   * Rethrows an error met on the shared fixture `name` as a knock-on of the check that made it (its
   * owner), unless this check is the owner, or the error is not a failure (`Incomplete`, `Skipped`),
   * or is already a knock-on (of the fixture it was built from).
   */
  blame(name: string, error: unknown): never {
    const owner = this.memo.get(name)?.owner;
    if (
      !owner ||
      owner === this.currentCheck ||
      error instanceof KnockOn ||
      error instanceof Incomplete ||
      error instanceof Skipped ||
      !(error instanceof Error)
    )
      throw error;
    throw new KnockOn(owner, name, error);
  }

  /** Registers how to remove or neutralise a fixture; run after all checks, newest first. */
  cleanup(action: () => Promise<Exchange | undefined>): void {
    this.cleanups.push(action);
  }

  async runCleanups(): Promise<string[]> {
    const problems: string[] = [];
    for (const action of this.cleanups.reverse()) {
      try {
        const e = await action();
        if (e && e.status >= 300)
          problems.push(`a fixture was left behind: ${e.method} ${e.url} answered ${e.status}`);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    return problems;
  }
}
