// A deployment's API as the checks call it and judge it: each contract loaded once with its operations,
// the calls by operationId (typed by the generated operation types), and an answer's problems
// against the whole contract and against its documented part (the seed's, where a difference is a
// MUST failure) — plus the verdicts' small vocabulary (pass, fail, evidence).
import { readFileSync } from 'node:fs';
import { formatErrors, SpecSchemas } from '../lib/openapi-schemas.ts';
import { bundlePath } from '../lib/paths.ts';
import { type Node, operations, resolveRef } from '../lib/spec-walk.ts';
import { acceptsAnything, documentedSpec } from './documented.ts';
import { curlOf, type Exchange, type HttpClient } from './http.ts';
import type { Evidence, Verdict } from './verdict.ts';

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
