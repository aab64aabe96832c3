// The fuzz engine both API fuzz tests share (docs/adr-0002, bad input): it finds an accepted input
// per operation, builds the cases an input table describes, sends them, and judges each answer with
// the state compared before and after. What differs between the APIs — their inputs, cases, error
// shape, keys and read-backs — is the input table (`FuzzTable`) that fuzz.test.ts and fuzz-v2.test.ts
// pass in.
import { describe, expect, it } from 'vitest';
import { request } from '../../conformance/request.ts';
import type { McpKey } from '../../mock/domain/model.ts';
import type { Snapshot } from '../../mock/domain/platform.ts';
import type { Expectation, Node, Operation } from './fuzz-inputs.ts';
import type { Harness } from './harness.ts';

export interface Req {
  method: string;
  /** Path under the API's prefix, with parameters already percent-encoded. */
  path: string;
  query?: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer> | Blob;
}

export interface Case<G extends string> {
  /** `operationId group: what`, stable across runs. */
  id: string;
  group: G;
  expect: Expectation;
  req: Req;
  /** An exact status the answer must have (401 for the key cases, 413/415 for some uploads). */
  status?: number;
}

export interface Answer {
  status: number;
  body: any;
  contentType: string | null;
  retryAfter: string | null;
}

/** Adds a case of a group to the operation's list. */
export type AddCase<G extends string> = (
  group: G,
  what: string,
  expect: Expectation,
  req: Req,
  status?: number,
) => void;

/** One API's input table: everything the engine needs to know of it. */
export interface FuzzTable<G extends string, Op extends Operation, In> {
  /** Where the API lives under the harness's base URL: `/openapi/v1`, `/api/v2`. */
  prefix: string;
  operations: Op[];
  /** The test title of each group of cases, in the order the groups run. */
  titles: Record<G, string>;
  /** Whether an operation has cases of a group (no body: no body cases). */
  applies: (op: Op, group: G) => boolean;
  /** The harness a group's cases go to. */
  harnessOf: (group: G) => Harness;
  /** The state as a string, to compare before and after a request. */
  state: (h: Harness) => string;
  /** Back to the state every case starts from. */
  restore: (h: Harness) => void;
  /** Valid inputs generated from the operation's schemas. */
  validInputs: (op: Op) => In[];
  /** The label of valid input `i` in its case id. */
  validLabel: (i: number) => string;
  request: (op: Op, input: In, over?: Partial<Req>) => Req;
  /** Every case but the valid ones, from the accepted input. */
  cases: (op: Op, base: In, add: AddCase<G>) => void;
  /** What is wrong with an error answer's shape, or null. */
  errorShapeProblem: (a: Answer) => string | null;
  /** Further problems of a refusal (an undocumented status, a 429 without Retry-After). */
  refusalProblems?: (op: Op, a: Answer) => string[];
  /** Reads that must survive any accepted write. */
  readBacks: (h: Harness) => Req[];
}

/**
 * The platform's state as a string, without the keys' `lastUsedAt`, which every successful v2
 * authentication stamps. The keys are copied without it rather than left out by a replacer function,
 * which JSON.stringify calls for every value: a quarter of a fuzz file's CPU.
 */
export function stateWithoutKeyUse(platform: Harness['platform']): Snapshot {
  const snapshot = platform.snapshot();
  for (const tenant of Object.values(snapshot.tenants))
    tenant.mcpKeys = tenant.mcpKeys.map(({ lastUsedAt: _, ...key }) => key as McpKey);
  return snapshot;
}

export const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
export const pick = <T>(list: T[], i: number): T => list[i % list.length] as T;

export const show = (a: Answer) => {
  const body = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  return `${a.status} ${(body ?? '').slice(0, 400)}`;
};

/** Bodies no JSON operation may accept, in the order they are sent; `raw` adds one case each. */
export function transportCases(
  raw: (
    what: string,
    body: string | Blob | undefined,
    contentType?: string,
    extra?: Record<string, string>,
    expect?: Expectation,
  ) => void,
  base: { text: string; padded: unknown },
  api: {
    /** A small object body of the API in the broken forms. */
    field: string;
    formBody: string;
    /** A multipart body, where the API has multipart operations. */
    multipart?: { body: string; contentType: string };
    /** Whether a JSON array around the accepted body is sent too. */
    array?: boolean;
    /** What an empty body must get (a regeneration without a body is a valid request in v2). */
    noBody?: Expectation;
  },
): void {
  const { text } = base;
  const json = 'application/json';
  const noBody = api.noBody ?? 'refused';
  raw('malformed JSON {"a":', '{"a":', json);
  raw('the accepted body truncated', text.slice(0, -1), json);
  raw('a trailing comma', `{"${api.field}":"x",}`, json);
  raw('single quotes', `{'${api.field}':'x'}`, json);
  raw('garbage after the JSON', `${text}x`, json);
  raw('wrong content type text/plain with a JSON body', text, 'text/plain');
  raw('a form body', api.formBody, 'application/x-www-form-urlencoded');
  if (api.multipart) raw('a multipart body', api.multipart.body, api.multipart.contentType);
  raw('no content type', new Blob([text]));
  raw('a body over 1 MB (a JSON string of 1.1e6 chars)', JSON.stringify('x'.repeat(1_100_000)), json);
  raw('a body over 1 MB (the accepted body padded)', JSON.stringify(base.padded), json);
  raw('an empty body with content-type application/json', '', json, {}, noBody);
  raw('no body and no content type', undefined, undefined, {}, noBody);
  raw('the JSON primitive 42', '42', json);
  raw('the JSON null', 'null', json);
  raw('a JSON string', '"x"', json);
  raw('the JSON true', 'true', json);
  if (api.array) raw('a JSON array', `[${text}]`, json);
  raw('an unsupported charset (ISO-8859-1)', text, 'application/json; charset=iso-8859-1');
  raw('gzip content-encoding on a plain body', text, json, { 'content-encoding': 'gzip' });
  raw('JSON nested 100000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, json);
}

export class FuzzEngine<G extends string, Op extends Operation, In> {
  requests = 0;
  private readonly accepted = new Map<string, In>();
  private readonly caseCache = new Map<string, Case<G>[]>();
  /**
   * Each harness's state as it was after the last request that changed nothing, or after a restore:
   * the "before" of the next case without writing the whole platform out again (a couple of ms a case,
   * thousands of cases). A state changed behind the engine's back can only make a case fail, never pass.
   */
  private readonly lastState = new Map<Harness, string>();

  /** The state of `h` before a request. */
  private before(h: Harness): string {
    let state = this.lastState.get(h);
    if (state === undefined) {
      state = this.table.state(h);
      this.lastState.set(h, state);
    }
    return state;
  }

  private changed(h: Harness, before: string): boolean {
    return this.table.state(h) !== before;
  }

  private restore(h: Harness): void {
    this.table.restore(h);
    this.lastState.delete(h);
  }

  constructor(readonly table: FuzzTable<G, Op, In>) {}

  /**
   * Sends a case as fetch would (a string body without a content type goes as text/plain, a Blob with
   * its own type or none), through the conformance suite's node:http client: thousands of requests a
   * file, each a fifth cheaper than through fetch.
   */
  async send(h: Harness, req: Req): Promise<Answer> {
    this.requests++;
    const url = `${h.base}${this.table.prefix}${req.path}${req.query ? `?${req.query}` : ''}`;
    const headers = { ...req.headers };
    const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    let body: string | Buffer | undefined;
    if (typeof req.body === 'string') {
      body = req.body;
      if (!typed) headers['content-type'] = 'text/plain;charset=UTF-8';
    } else if (req.body instanceof Blob) {
      body = Buffer.from(await req.body.arrayBuffer());
      if (!typed && req.body.type) headers['content-type'] = req.body.type;
    } else if (req.body) body = Buffer.from(req.body);
    const answer = await request(url, req.method, headers, body, 60_000);
    let parsed: unknown = answer.text;
    try {
      parsed = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {}
    return {
      status: answer.status,
      body: parsed,
      contentType: answer.headers.get('content-type'),
      retryAfter: answer.headers.get('retry-after'),
    };
  }

  /**
   * The base of every mutation: the smallest valid input the mock accepted (2xx) and that changed the
   * state, so that a mutation which slips through shows; failing that, the first accepted one.
   * The state is restored after each try.
   */
  async acceptedInput(op: Op): Promise<In> {
    const known = this.accepted.get(op.operationId);
    if (known) return known;
    const { table } = this;
    const h = table.harnessOf('valid' as G);
    const inputs = table.validInputs(op);
    // Every mutation of an operation is sent with the base's body; the smallest body that changed the
    // state makes the same mutations (each is of a node of the schema) for less work each: a snapshot
    // to import is 130 KB written out from the demo, and a generated one a few hundred bytes.
    const size = (input: In) => table.request(op, input).body?.toString().length ?? 0;
    let found: In | undefined;
    let changedOne: In | undefined;
    for (const input of inputs) {
      const before = this.before(h);
      const answer = await this.send(h, table.request(op, input));
      const changed = this.changed(h, before);
      if (changed) this.restore(h);
      if (answer.status >= 300) continue;
      found ??= input;
      if (changed && (!changedOne || size(input) < size(changedOne))) changedOne = input;
    }
    found = changedOne ?? found;
    const base = found ?? (inputs[0] as In);
    this.accepted.set(op.operationId, base);
    return base;
  }

  async casesOf(op: Op): Promise<Case<G>[]> {
    const cached = this.caseCache.get(op.operationId);
    if (cached) return cached;
    const { table } = this;
    const base = await this.acceptedInput(op);
    const cases: Case<G>[] = [];
    const add: AddCase<G> = (group, what, expect, req, status) =>
      cases.push({
        id: `${op.operationId} ${group}: ${what}`,
        group,
        expect,
        req,
        ...(status ? { status } : {}),
      });
    table.validInputs(op).forEach((input, i) => {
      add('valid' as G, `#${i}${table.validLabel(i)}`, 'probe', table.request(op, input));
    });
    table.cases(op, base, add);
    this.caseCache.set(op.operationId, cases);
    return cases;
  }

  /** Sends one case and answers what is wrong with the answer, or null. */
  async judge(op: Op, c: Case<G>): Promise<{ problem: string | null; status: number }> {
    const { table } = this;
    const h = table.harnessOf(c.group);
    const before = this.before(h);
    const a = await this.send(h, c.req);
    const changed = this.changed(h, before);
    const problems: string[] = [];
    if (a.status >= 500) problems.push('a 5xx');
    else if (a.status >= 400) {
      const shape = table.errorShapeProblem(a);
      if (shape) problems.push(`error shape: ${shape}`);
      problems.push(...(table.refusalProblems?.(op, a) ?? []));
      if (changed) problems.push('a refused request changed the state');
    } else if (c.expect === 'refused') problems.push(`accepted (${a.status}) though it must be refused`);
    else if (c.expect === 'refusedOrIgnored' && changed)
      problems.push('an unknown id was accepted and changed the state');
    if (c.status && a.status !== c.status) problems.push(`expected ${c.status}`);
    if (changed) {
      if (a.status < 400)
        for (const read of table.readBacks(h)) {
          const r = await this.send(h, read);
          if (r.status >= 500) problems.push(`after it, ${read.method} ${read.path} answered ${show(r)}`);
        }
      this.restore(h);
    }
    if (({} as Node).polluted !== undefined) problems.push('Object.prototype was polluted');
    return {
      problem: problems.length ? `${c.id} → ${[...new Set(problems)].join('; ')} — got ${show(a)}` : null,
      status: a.status,
    };
  }

  async judgeAll(op: Op, cases: Case<G>[]): Promise<{ problems: string[]; statuses: number[] }> {
    const problems: string[] = [];
    const statuses: number[] = [];
    for (const c of cases) {
      const { problem, status } = await this.judge(op, c);
      statuses.push(status);
      if (problem) problems.push(problem);
    }
    return { problems, statuses };
  }

  /**
   * One `describe` per operation with one test per group of cases that applies to it; `more` adds
   * an API's own tests for an operation.
   */
  describeOperations(more?: (op: Op) => void): void {
    const { table } = this;
    describe.each(table.operations.map((op) => [`${op.operationId} (${op.method} ${op.path})`, op] as const))(
      '%s',
      (_, op) => {
        for (const group of Object.keys(table.titles) as G[]) {
          if (!table.applies(op, group)) continue;
          it(table.titles[group], { timeout: 180_000 }, async () => {
            const cases = (await this.casesOf(op)).filter((c) => c.group === group);
            expect(cases.length).toBeGreaterThan(0);
            const { problems, statuses } = await this.judgeAll(op, cases);
            expect(problems).toEqual([]);
            // The generated inputs must reach the handler: at least one of them is accepted.
            if (group === 'valid') expect(statuses.some((s) => s >= 200 && s < 300)).toBe(true);
          });
        }
        more?.(op);
      },
    );
  }
}
