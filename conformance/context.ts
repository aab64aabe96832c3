// What every check gets: the configuration, the deployment's two APIs with the right keys, the
// bundled contracts to judge answers against (whole, and their documented part), memoised
// discoveries, the run's budgets, and fixture cleanup.
import { readFileSync } from 'node:fs';
import type { operations as V1Operations } from '../generated/v1.ts';
import type { operations as V2Operations } from '../generated/v2.ts';
import { formatErrors, SpecSchemas } from '../lib/openapi-schemas.ts';
import { bundlePath } from '../lib/paths.ts';
import { type Node, operations, resolveRef } from '../lib/spec-walk.ts';
import { loadTools } from '../lib/tool-schemas.ts';
import { acceptsAnything, documentedSpec } from './documented.ts';
import { curlOf, type Exchange, HttpClient } from './http.ts';
import { Incomplete } from './outcomes.ts';
import type { Evidence, Verdict } from './types.ts';

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
   * course; without them those MUSTs do not run and the run is incomplete.
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
}

/** The licence states a `--tenant-key` stands for (seed 000, Tenant restrictions, Authentication 4). */
export const LICENCE_STATES = ['read', 'none', 'no-ai'] as const;
export type LicenceState = (typeof LICENCE_STATES)[number];

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

interface Operation {
  method: string;
  path: string;
  node: Node;
}

const contracts = new Map<string, Node>();
/** The bundled contract of an API, read once. */
export function loadContract(api: 'v1' | 'v2'): Node {
  let spec = contracts.get(api);
  if (!spec) {
    spec = JSON.parse(readFileSync(bundlePath(api), 'utf8')) as Node;
    contracts.set(api, spec);
  }
  return spec;
}

/** The operations of an API's contract by operationId. */
export const contractOf = (api: 'v1' | 'v2') => indexOperations(loadContract(api));

function indexOperations(spec: Node): Map<string, Operation> {
  const map = new Map<string, Operation>();
  for (const { method, path, operation: node } of operations(spec)) {
    if (node.operationId) map.set(node.operationId, { method: method.toUpperCase(), path, node });
  }
  return map;
}

/** Problems of an answer: against the documented part (MUST) and only against the kit's choices. */
export interface Problems {
  documented: string[];
  assumed: string[];
}

const TWENTY_YEARS = 20 * 365.25 * 86_400;

/** Integer timestamps (`…At` fields) that are not Unix seconds near the deployment's own clock. */
function implausibleTimestamps(body: unknown, now: number, path = ''): string[] {
  if (Array.isArray(body)) return body.flatMap((v, i) => implausibleTimestamps(v, now, `${path}/${i}`));
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([k, v]) => {
    if (/At$/.test(k) && typeof v === 'number') {
      return Number.isInteger(v) && Math.abs(v - now) <= TWENTY_YEARS
        ? []
        : [`${path}/${k}: ${v} is not Unix seconds within 20 years of the deployment's clock (${now})`];
    }
    return implausibleTimestamps(v, now, `${path}/${k}`);
  });
}

/** The validators of a contract, whole and its documented part; compiled once, shared by runs. */
const validators = new Map<string, { whole: SpecSchemas; documentedPart: Node; documented: SpecSchemas }>();
function validatorsOf(spec: Node) {
  const key = String(spec.info?.title);
  let v = validators.get(key);
  if (!v) {
    const documentedPart = documentedSpec(spec);
    v = { whole: new SpecSchemas(spec), documentedPart, documented: new SpecSchemas(documentedPart) };
    validators.set(key, v);
  }
  return v;
}

/** What `Api.call` sends: path parameters, query, a JSON body and headers. */
export interface CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
  /** False: answer a 429 as it comes (the limit probes), instead of waiting it out. */
  waitOut429?: boolean;
}

/** The JSON body an operation of the generated types accepts, or `undefined` when it has none. */
type JsonBody<Op> = Op extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? undefined
    : NonNullable<R> extends { content: { 'application/json': infer B } }
      ? B
      : undefined
  : undefined;
type PathParams<Op> = Op extends { parameters: { path: infer P } } ? P : undefined;
type QueryParams<Op> = Op extends { parameters: { query?: infer Q } } ? Q : undefined;

/**
 * The options of a call typed from generated/{v1,v2}.ts by operationId: an operation that does not
 * exist, or a parameter or body the contract does not have, is a compile error. Query values may be
 * given as they are sent (strings); the suite's deliberately bad requests go through `callRaw`.
 */
export type TypedCallOptions<Op> = {
  headers?: Record<string, string>;
} & (PathParams<Op> extends undefined ? { params?: undefined } : { params: PathParams<Op> }) &
  (QueryParams<Op> extends undefined
    ? { query?: undefined }
    : { query?: { [K in keyof QueryParams<Op>]?: QueryParams<Op>[K] | string } }) &
  ([JsonBody<Op>] extends [undefined] ? { body?: undefined } : { body?: JsonBody<Op> });

/** One of the deployment's APIs, judged against its bundled contract. */
// biome-ignore lint/suspicious/noExplicitAny: an Api of either contract, where only the untyped calls are used.
export class Api<Ops = any> {
  readonly operations: Map<string, Operation>;
  private readonly whole: SpecSchemas;
  private readonly documentedPart: Node;
  private readonly documented: SpecSchemas;
  /** `operationId status` of every answer a check expected and got: the rules this run exercised. */
  readonly covered = new Set<string>();
  /** Departures from the kit's assumed choices noted since the runner last took them. */
  private notes: { text: string; evidence: Evidence }[] = [];

  constructor(
    readonly name: 'v1' | 'v2',
    readonly spec: Node,
    readonly base: string,
    private readonly http: HttpClient,
    /** Before a call (may refuse it), and after its answer: the AI budget's bookkeeping. */
    private readonly onCall: (
      op: Node,
      headers: Record<string, string>,
      answer?: Exchange,
    ) => void = () => {},
  ) {
    this.operations = indexOperations(spec);
    ({
      whole: this.whole,
      documentedPart: this.documentedPart,
      documented: this.documented,
    } = validatorsOf(spec));
  }

  operation(operationId: string): Operation {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`no operation ${operationId} in ${this.name}`);
    return op;
  }

  /** The response the contract gives for a status, if any. */
  response(operationId: string, status: number): Node | undefined {
    return resolveRef(this.spec, this.operation(operationId).node.responses[String(status)]);
  }

  /** Whether the contract's response for that status is the kit's choice, not the seed's. */
  assumedStatus(operationId: string, status: number): boolean {
    return this.response(operationId, status)?.['x-assumed'] === true;
  }

  cover(operationId: string, status: number): void {
    this.covered.add(`${operationId} ${status}`);
  }

  /** Notes a departure from an assumed part of the contract (reported as SHOULD by the runner). */
  noteAssumed(texts: string[], evidence: Evidence): void {
    for (const text of texts) this.notes.push({ text, evidence });
  }

  takeNotes(): { text: string; evidence: Evidence }[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }

  /** Calls an operation by id, its request typed from the generated types of the contract. */
  call<Id extends keyof Ops & string>(
    operationId: Id,
    options?: TypedCallOptions<Ops[Id]>,
  ): Promise<Exchange> {
    return this.callRaw(operationId, (options ?? {}) as CallOptions);
  }

  /**
   * Calls an operation by id, untyped: for requests the suite builds from the contract at run time
   * and for those that break it on purpose (a missing field, a wrong type).
   */
  async callRaw(operationId: string, options: CallOptions = {}): Promise<Exchange> {
    const op = this.operation(operationId);
    this.onCall(op.node, options.headers ?? {});
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      encodeURIComponent(String(options.params?.[name] ?? '')),
    );
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const answer = await this.http.send(
      op.method,
      url.toString(),
      options.headers ?? {},
      options.body,
      options.waitOut429,
    );
    this.onCall(op.node, options.headers ?? {}, answer);
    return answer;
  }

  /**
   * Problems of an answer, judged as the contract's response for `status`: a JSON body must come as
   * JSON, and must validate. What departs from the documented part is `documented`; what departs only
   * from the kit's choices (`x-assumed`) is `assumed`. v1 timestamps must be Unix seconds (seed 001);
   * the v2 ones are the kit's choice.
   */
  problems(operationId: string, e: Exchange, status = e.status): Problems {
    const { node, method, path } = this.operation(operationId);
    const raw = node.responses[String(status)];
    if (!raw) {
      return {
        documented: [
          `status ${status} is not documented for ${method} ${path} (documented: ${Object.keys(node.responses).join(', ')})`,
        ],
        assumed: [],
      };
    }
    const media = (resolveRef(this.spec, raw) as Node).content?.['application/json'];
    if (!media?.schema) return { documented: [], assumed: [] };
    const at = raw.$ref
      ? [...(raw.$ref as string).slice(2).split('/'), 'content', 'application/json', 'schema']
      : [
          'paths',
          path,
          method.toLowerCase(),
          'responses',
          String(status),
          'content',
          'application/json',
          'schema',
        ];
    const documentedSchema = resolveRef(
      this.documentedPart,
      at.reduce((n: Node, k) => n?.[k], this.documentedPart),
    );
    // Where the whole body was assumed, even its absence departs only from the kit's choice.
    const shapeProblem = (p: string): Problems =>
      acceptsAnything(documentedSchema) ? { documented: [], assumed: [p] } : { documented: [p], assumed: [] };
    if (!e.text)
      return e.status === 401
        ? { documented: [], assumed: [] }
        : shapeProblem('the body is empty, a JSON body is documented');
    if (!(e.headers.get('content-type') ?? '').includes('application/json'))
      return shapeProblem(
        `content type is ${e.headers.get('content-type') ?? 'missing'}, application/json is documented`,
      );
    if (e.body === undefined) return shapeProblem('the body is not valid JSON');
    const documented = formatErrors(this.documented.errors(at, e.body));
    const assumed = formatErrors(this.whole.errors(at, e.body)).filter((p) => !documented.includes(p));
    const date = Date.parse(e.headers.get('date') ?? '');
    const clock = Math.floor((Number.isNaN(date) ? Date.now() : date) / 1000);
    const times = e.status < 300 ? implausibleTimestamps(e.body, clock) : [];
    return this.name === 'v1'
      ? { documented: [...documented, ...times], assumed }
      : { documented, assumed: [...assumed, ...times] };
  }
}

export const evidenceOf = (e: Exchange, expected: string, schemaErrors?: string[]): Evidence => ({
  expected,
  received: `${e.status} ${e.text.length > 600 ? `${e.text.slice(0, 600)}...` : e.text}`,
  ...(schemaErrors?.length ? { schemaErrors } : {}),
  curl: curlOf(e),
});

export const pass = (): Verdict => ({ status: 'pass' });
export const fail = (reason: string, evidence?: Evidence): Verdict => ({
  status: 'fail',
  reason,
  ...(evidence ? { evidence } : {}),
});

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
  private readonly memo = new Map<string, Promise<unknown>>();
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
      ...Object.entries(this.config.roleKeys ?? {}).map(([role, key]) => ({ key, role })),
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

  /** Computes a value once per run (e.g. an existing user id found by a search). */
  once<T>(name: string, compute: () => Promise<T>): Promise<T> {
    let value = this.memo.get(name) as Promise<T> | undefined;
    if (!value) {
      value = compute();
      this.memo.set(name, value);
    }
    return value;
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
