// What every check gets: the configuration, the deployment's two APIs with the right keys, the
// bundled contracts to validate answers against, memoised discoveries, and fixture cleanup.
import { readFileSync } from 'node:fs';
import { formatErrors, resolveRef, SpecSchemas } from '../lib/openapi-schemas.ts';
import { bundlePath } from '../lib/paths.ts';
import { curlOf, type Exchange, HttpClient } from './http.ts';
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
}

// biome-ignore lint/suspicious/noExplicitAny: documents and answers are walked generically.
type Node = Record<string, any>;

export interface KeyInfo {
  key: string;
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

function indexOperations(spec: Node): Map<string, Operation> {
  const map = new Map<string, Operation>();
  for (const [path, item] of Object.entries(spec.paths as Node)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const node = (item as Node)[method] as Node | undefined;
      if (node?.operationId) map.set(node.operationId, { method: method.toUpperCase(), path, node });
    }
  }
  return map;
}

const deref = resolveRef;

/** One of the deployment's APIs, checked against its bundled contract. */
export class Api {
  readonly operations: Map<string, Operation>;
  private readonly schemas: SpecSchemas;

  constructor(
    readonly name: 'v1' | 'v2',
    readonly spec: Node,
    readonly base: string,
    private readonly http: HttpClient,
  ) {
    this.operations = indexOperations(spec);
    this.schemas = new SpecSchemas(spec);
  }

  operation(operationId: string): Operation {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`no operation ${operationId} in ${this.name}`);
    return op;
  }

  /** Calls an operation by id: path parameters filled in, query appended. */
  call(
    operationId: string,
    options: {
      params?: Record<string, string | number>;
      query?: Record<string, string | number>;
      body?: unknown;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Exchange> {
    const op = this.operation(operationId);
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      encodeURIComponent(String(options.params?.[name] ?? '')),
    );
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    return this.http.send(op.method, url.toString(), options.headers ?? {}, options.body);
  }

  /**
   * Problems of an answer against the contract: the status must be documented for the operation, a
   * JSON body must come as JSON, and the body must validate against the documented schema.
   */
  problems(operationId: string, e: Exchange): string[] {
    const { node, method, path } = this.operation(operationId);
    const key = node.responses[String(e.status)]
      ? String(e.status)
      : node.responses.default
        ? 'default'
        : null;
    if (!key)
      return [
        `status ${e.status} is not documented for ${method} ${path} (documented: ${Object.keys(node.responses).join(', ')})`,
      ];
    const response = deref(this.spec, node.responses[key]) as Node;
    const media = response.content?.['application/json'];
    if (!media?.schema) return [];
    if (!e.text) return e.status === 401 ? [] : ['the body is empty, a JSON body is documented'];
    if (!(e.headers.get('content-type') ?? '').includes('application/json')) {
      return [
        `content type is ${e.headers.get('content-type') ?? 'missing'}, application/json is documented`,
      ];
    }
    if (e.body === undefined) return ['the body is not valid JSON'];
    const at = node.responses[key].$ref
      ? [...(node.responses[key].$ref as string).slice(2).split('/'), 'content', 'application/json', 'schema']
      : ['paths', path, method.toLowerCase(), 'responses', key, 'content', 'application/json', 'schema'];
    return formatErrors(this.schemas.errors(at, e.body));
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
export const skip = (reason: string): Verdict => ({ status: 'skip', reason });

export class Context {
  readonly http: HttpClient;
  readonly v1: Api;
  readonly v2: Api;
  /** The MCP keys, with what their capabilities say. */
  keys: KeyInfo[] = [];
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly cleanups: (() => Promise<Exchange>)[] = [];
  /** A prefix unique to this run, for the names of the fixtures it creates. */
  readonly runId = `lmskit${Date.now().toString(36)}`;

  constructor(readonly config: ConformanceConfig) {
    this.http = new HttpClient({ rate: config.rate, timeoutMs: config.timeoutMs });
    const base = config.baseUrl.replace(/\/+$/, '');
    const load = (api: 'v1' | 'v2') => JSON.parse(readFileSync(bundlePath(api), 'utf8'));
    this.v1 = new Api('v1', load('v1'), `${base}/openapi/v1`, this.http);
    this.v2 = new Api('v2', load('v2'), `${base}/api/v2`, this.http);
  }

  /** Reads each MCP key's capabilities once; a key the deployment refuses is kept out. */
  async discoverKeys(): Promise<string[]> {
    const problems: string[] = [];
    for (const key of this.config.mcpKeys) {
      const e = await this.v2.call('getCapabilities', { headers: { 'x-mcp-key': key } });
      const body = e.body as Partial<KeyInfo> | undefined;
      if (e.status === 200 && body?.scopes && Array.isArray(body.tools))
        this.keys.push({ key, ...(body as Omit<KeyInfo, 'key'>) });
      else
        problems.push(
          `an MCP key ending …${key.slice(-4)} was refused (${e.status}); checks needing it are skipped`,
        );
    }
    return problems;
  }

  /** A key whose effective scopes include `scope` (a write key preferred for write). */
  key(scope: 'read' | 'write'): KeyInfo | undefined {
    return scope === 'write'
      ? this.keys.find((k) => k.scopes.write)
      : (this.keys.find((k) => k.scopes.read && !k.scopes.write) ?? this.keys.find((k) => k.scopes.read));
  }

  v1Headers(): Record<string, string> {
    return this.config.apiKey ? { 'x-api-key': this.config.apiKey } : {};
  }

  v2Headers(scope: 'read' | 'write' = 'read'): Record<string, string> {
    const key = this.key(scope);
    return key ? { 'x-mcp-key': key.key } : {};
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
  cleanup(action: () => Promise<Exchange>): void {
    this.cleanups.push(action);
  }

  async runCleanups(): Promise<string[]> {
    const problems: string[] = [];
    for (const action of this.cleanups.reverse()) {
      try {
        const e = await action();
        if (e.status >= 300)
          problems.push(`a fixture was left behind: ${e.method} ${e.url} answered ${e.status}`);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    return problems;
  }
}
