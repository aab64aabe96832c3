// Property/fuzz test of the v1 API (docs/adr-0002; seed 001, "Errors"): "Bad input gets a clear 4xx
// in the documented shape and changes nothing: malformed JSON, wrong content type, bodies over 1 MB,
// wrong types, negative or huge ids and offsets, unknown ids, odd Unicode. Never a 5xx, never a crash."
//
// For every operation of the bundled v1 document (iterated from `paths`, not listed here):
// - valid inputs generated from its schemas with json-schema-faker (seeded: the same every run), half
//   of them naming demo resources so the handlers really run;
// - mutations of an input the mock accepted, made from the schemas (fuzz-inputs.ts);
// - bad path ids and offsets, bad transports (JSON, content type, size), missing or wrong keys.
// Each answer is judged with the platform state compared before and after (`snapshot()`, the audit
// log and events included). The harness validates every answer against the contract, so a 2xx that
// departs from it turns into a 500 and fails here too. A request that changed the state is followed
// by reads of every GET operation (accepted data must not break them) and the demo state is restored.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundlePath } from '../../lib/paths.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import {
  bodyCases,
  type Expectation,
  fake,
  isReference,
  kindOf,
  type Node,
  type Operation,
  operationsOf,
  pathCases,
  queryCases,
  seedOf,
} from './fuzz-inputs.ts';
import { DEMO_SITE_API_KEY, type Harness, startHarness } from './harness.ts';

const spec = JSON.parse(readFileSync(bundlePath('v1'), 'utf8')) as Node;
const OPERATIONS = operationsOf(spec);
/** Valid inputs generated per operation; the even ones name demo resources. */
const VALID_PER_OPERATION = 6;
const DEMO = loadSeed('demo');

type Group = 'valid' | 'body' | 'params' | 'transport' | 'auth';

interface Req {
  method: string;
  /** Path under /openapi/v1, with parameters already percent-encoded. */
  path: string;
  query?: string;
  headers: Record<string, string>;
  body?: string | Blob;
}

interface Case {
  /** `operationId group: what`, stable across runs. */
  id: string;
  group: Group;
  expect: Expectation;
  req: Req;
  /** An exact status the answer must have (401 for the key cases). */
  status?: number;
}

interface Answer {
  status: number;
  body: any;
  contentType: string | null;
}

interface Input {
  params: Record<string, string>;
  query?: string;
  body?: unknown;
}

let h: Harness;
let requests = 0;
let demoIds: Record<string, (string | number)[]>;
const accepted = new Map<string, Input>();
const caseCache = new Map<string, Case[]>();

beforeAll(async () => {
  h = await startHarness();
  const t = h.platform.tenant('demo');
  demoIds = {
    user: [...t.users.values()].filter((u) => !u.isBanned).map((u) => u.apiId),
    group: [...t.groups.keys()],
    course: [...t.courses.keys()],
    attribute: [...t.attributes.keys()],
    event: [...new Set(t.events.map((e) => e.type))],
  };
});

afterAll(async () => {
  console.log(`v1 fuzz: ${requests} requests sent`);
  await h?.close();
});

beforeEach(() => restore());

/** Back to the demo seed (the state every case starts from). */
const restore = () => h.platform.load(DEMO);
const state = () => JSON.stringify(h.platform.snapshot());
const pick = <T>(list: T[], i: number): T => list[i % list.length] as T;
const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

async function send(req: Req): Promise<Answer> {
  requests++;
  const url = `${h.base}/openapi/v1${req.path}${req.query ? `?${req.query}` : ''}`;
  const response = await fetch(url, { method: req.method, headers: req.headers, body: req.body });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: response.status, body, contentType: response.headers.get('content-type') };
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** Field hints for the demo half of the valid inputs: a role the mock has, and no custom values to clash. */
const FIELD_HINTS: Record<string, () => unknown> = { roleAlias: () => 'learner', attributes: () => ({}) };

/** The body with its references pointed at demo resources (attribute references dropped: they would have to match a type). */
function withDemoIds(schema: Node, body: unknown, i: number): unknown {
  if (Array.isArray(body) && schema.items) {
    const items = body.length ? body : [fake(schema.items, seedOf(`item${i}`))];
    return items.map((item, k) => withDemoIds(schema.items, item, i + k));
  }
  if (!isObject(body) || !schema.properties) return body;
  const out: Node = { ...body };
  for (const [name, sub] of Object.entries(schema.properties as Record<string, Node>)) {
    if (!(name in out)) continue;
    const hint = FIELD_HINTS[name];
    if (hint) out[name] = hint();
    else if (isReference(sub)) {
      const kind = kindOf(name) ?? kindOf(sub.description);
      const ids = kind && kind !== 'attribute' ? demoIds[kind] : undefined;
      if (!ids) delete out[name];
      else out[name] = [sub.type].flat().includes('array') ? [pick(ids, i), pick(ids, i + 1)] : pick(ids, i);
    }
  }
  return out;
}

/** Valid inputs from the schemas; the even ones use demo ids, the parameter examples and the field hints. */
function validInputs(op: Operation): Input[] {
  return Array.from({ length: VALID_PER_OPERATION }, (_, i) => {
    const demo = i % 2 === 0;
    const seed = seedOf(op.operationId) + i;
    const params: Record<string, string> = {};
    const query: string[] = [];
    for (const p of op.parameters) {
      const kind = kindOf(p.name);
      const value =
        demo && p.in === 'query' && p.example !== undefined
          ? p.example
          : demo && kind && demoIds[kind]
            ? pick(demoIds[kind], i / 2)
            : fake(p.schema, seed + seedOf(p.name));
      if (p.in === 'path') params[p.name] = encodeURIComponent(String(value));
      else query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(value))}`);
    }
    const input: Input = { params, ...(query.length ? { query: query.join('&') } : {}) };
    if (op.body) {
      const body = fake(op.body, seed);
      input.body = demo ? withDemoIds(op.body, body, i / 2) : body;
    }
    return input;
  });
}

const JSON_HEADERS = { 'x-api-key': DEMO_SITE_API_KEY, 'content-type': 'application/json' };

function request(op: Operation, input: Input, over: Partial<Req> = {}): Req {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => input.params[name] ?? '');
  const hasBody = input.body !== undefined;
  return {
    method: op.method,
    path,
    ...(input.query ? { query: input.query } : {}),
    headers: hasBody ? { ...JSON_HEADERS } : { 'x-api-key': DEMO_SITE_API_KEY },
    ...(hasBody ? { body: JSON.stringify(input.body) } : {}),
    ...over,
  };
}

/**
 * The base of every mutation: the first valid input the mock accepted (2xx) and that changed the
 * state, so that a mutation which slips through shows; failing that, the first accepted one.
 * The state is restored after each try.
 */
async function acceptedInput(op: Operation): Promise<Input> {
  const known = accepted.get(op.operationId);
  if (known) return known;
  const inputs = validInputs(op);
  let found: Input | undefined;
  for (const input of inputs) {
    const before = state();
    const answer = await send(request(op, input));
    const changed = state() !== before;
    restore();
    if (answer.status >= 300) continue;
    found ??= input;
    if (changed) {
      found = input;
      break;
    }
  }
  const base = found ?? (inputs[0] as Input);
  accepted.set(op.operationId, base);
  return base;
}

// ---------------------------------------------------------------------------------------------
// Cases

async function casesOf(op: Operation): Promise<Case[]> {
  const cached = caseCache.get(op.operationId);
  if (cached) return cached;
  const base = await acceptedInput(op);
  const cases: Case[] = [];
  const add = (group: Group, what: string, expect: Expectation, req: Req, status?: number) =>
    cases.push({
      id: `${op.operationId} ${group}: ${what}`,
      group,
      expect,
      req,
      ...(status ? { status } : {}),
    });

  validInputs(op).forEach((input, i) => {
    add('valid', `#${i}${i % 2 === 0 ? ' (demo ids)' : ''}`, 'probe', request(op, input));
  });

  if (op.body)
    for (const c of bodyCases(op.body, base.body))
      add('body', c.id, c.expect, request(op, { ...base, body: c.body }));

  for (const p of op.parameters) {
    if (p.in === 'path')
      for (const [label, raw] of pathCases(p))
        add(
          'params',
          `${p.name} ${label}`,
          'refused',
          request(op, { ...base, params: { ...base.params, [p.name]: raw } }),
        );
    else
      for (const [label, query] of queryCases(p))
        add('params', `${p.name} ${label}`, 'refused', request(op, { ...base, query }));
  }

  if (op.body) {
    const text = JSON.stringify(base.body);
    const padded = Array.isArray(base.body)
      ? [...base.body, { pad: 'x'.repeat(1_100_000) }]
      : { ...(base.body as Node), pad: 'x'.repeat(1_100_000) };
    const raw = (
      what: string,
      body: string | Blob | undefined,
      contentType?: string,
      extra: Record<string, string> = {},
    ) => {
      const headers: Record<string, string> = { 'x-api-key': DEMO_SITE_API_KEY, ...extra };
      if (contentType) headers['content-type'] = contentType;
      const req = request(op, base, { headers, body });
      if (body === undefined) delete req.body;
      add('transport', what, 'refused', req);
    };
    const json = 'application/json';
    raw('malformed JSON {"a":', '{"a":', json);
    raw('the accepted body truncated', text.slice(0, -1), json);
    raw('a trailing comma', '{"name":"x",}', json);
    raw('single quotes', "{'name':'x'}", json);
    raw('garbage after the JSON', `${text}x`, json);
    raw('wrong content type text/plain with a JSON body', text, 'text/plain');
    raw('a form body', 'name=x&email=y', 'application/x-www-form-urlencoded');
    raw('no content type', new Blob([text]));
    raw('a body over 1 MB (a JSON string of 1.1e6 chars)', JSON.stringify('x'.repeat(1_100_000)), json);
    raw('a body over 1 MB (the accepted body padded)', JSON.stringify(padded), json);
    raw('an empty body with content-type application/json', '', json);
    raw('no body and no content type', undefined);
    raw('the JSON primitive 42', '42', json);
    raw('the JSON null', 'null', json);
    raw('a JSON string', '"x"', json);
    raw('the JSON true', 'true', json);
    raw('an unsupported charset (ISO-8859-1)', text, 'application/json; charset=iso-8859-1');
    raw('gzip content-encoding on a plain body', text, json, { 'content-encoding': 'gzip' });
    raw('JSON nested 100000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, json);
  }

  const auth = (what: string, key: string | null) => {
    const req = request(op, base);
    const { 'x-api-key': _, ...headers } = req.headers;
    add(
      'auth',
      what,
      'refused',
      { ...req, headers: key === null ? headers : { ...headers, 'x-api-key': key } },
      401,
    );
  };
  auth('no X-API-KEY', null);
  auth('an empty X-API-KEY', '');
  auth('a wrong X-API-KEY', 'wrong-key');
  auth('the demo key in upper case', DEMO_SITE_API_KEY.toUpperCase());

  caseCache.set(op.operationId, cases);
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Judging

/** What is wrong with an error answer, judged against the v1 error object `{status, message, errors?, data?}`. */
function errorShapeProblem(a: Answer): string | null {
  if (!a.contentType?.startsWith('application/json')) return `content type ${a.contentType}, not JSON`;
  const b = a.body;
  if (!isObject(b)) return 'the body is not a JSON object';
  if (b.status !== a.status) return `body.status ${JSON.stringify(b.status)} is not the HTTP status`;
  if (typeof b.message !== 'string' || !b.message) return 'no message';
  if ('errors' in b) {
    const ok =
      isObject(b.errors) &&
      Object.values(b.errors).every((m) => Array.isArray(m) && m.every((s) => typeof s === 'string'));
    if (!ok) return '`errors` is not an object of string arrays';
  }
  if ('data' in b && !isObject(b.data)) return '`data` is not an object';
  const extra = Object.keys(b).filter((k) => !['status', 'message', 'errors', 'data'].includes(k));
  return extra.length ? `unknown keys ${extra.join(', ')}` : null;
}

let readBackRequests: Req[] | undefined;

/** Every GET operation, with demo ids (every event type for the webhook): reads that must survive any accepted write. */
function readBacks(): Req[] {
  readBackRequests ??= OPERATIONS.filter((op) => op.method === 'GET').flatMap((op) => {
    const paths = op.parameters.filter((p) => p.in === 'path');
    let inputs: Input[] = [{ params: {} }];
    for (const p of paths) {
      const kind = kindOf(p.name);
      const values = kind === 'event' ? (demoIds.event ?? []) : kind ? [pick(demoIds[kind] ?? [], 0)] : [];
      inputs = inputs.flatMap((input) =>
        values.map((v) => ({ params: { ...input.params, [p.name]: encodeURIComponent(String(v)) } })),
      );
    }
    return inputs.map((input) => request(op, input));
  });
  return readBackRequests;
}

const show = (a: Answer) => {
  const body = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  return `${a.status} ${(body ?? '').slice(0, 400)}`;
};

/** Sends one case and answers what is wrong with the answer, or null. */
async function judge(c: Case): Promise<{ problem: string | null; status: number }> {
  const before = state();
  const a = await send(c.req);
  const changed = state() !== before;
  const problems: string[] = [];
  if (a.status >= 500) problems.push('a 5xx');
  else if (a.status >= 400) {
    const shape = errorShapeProblem(a);
    if (shape) problems.push(`error shape: ${shape}`);
    if (changed) problems.push('a refused request changed the state');
  } else if (c.expect === 'refused') problems.push(`accepted (${a.status}) though it must be refused`);
  else if (c.expect === 'refusedOrIgnored' && changed)
    problems.push('an unknown id was accepted and changed the state');
  if (c.status && a.status !== c.status) problems.push(`expected ${c.status}`);
  if (c.expect === 'refused' && a.status < 400) problems.push('not a 4xx');
  if (changed) {
    if (a.status < 400)
      for (const read of readBacks()) {
        const r = await send(read);
        if (r.status >= 500) problems.push(`after it, ${read.method} ${read.path} answered ${show(r)}`);
      }
    restore();
  }
  if (({} as Node).polluted !== undefined) problems.push('Object.prototype was polluted');
  return {
    problem: problems.length ? `${c.id} → ${[...new Set(problems)].join('; ')} — got ${show(a)}` : null,
    status: a.status,
  };
}

async function judgeAll(cases: Case[]): Promise<{ problems: string[]; statuses: number[] }> {
  const problems: string[] = [];
  const statuses: number[] = [];
  for (const c of cases) {
    const { problem, status } = await judge(c);
    statuses.push(status);
    if (problem) problems.push(problem);
  }
  return { problems, statuses };
}

// ---------------------------------------------------------------------------------------------
// Tests

const TITLES: Record<Group, string> = {
  valid:
    'valid inputs generated from its schemas (json-schema-faker) never get a 5xx, and any refusal among them is in the error shape and changes nothing',
  body: 'seed 001 Errors: body mutations (missing required, wrong types, out-of-range numbers, bad strings, odd Unicode, unknown ids, extra keys) get a 4xx in the error shape and change nothing — or, where the contract allows them, never a 5xx',
  params:
    'seed 001 Errors: negative, huge, non-numeric, unknown and odd-Unicode path ids and offsets get a 4xx in the error shape and change nothing',
  transport:
    'malformed JSON, a wrong content type, a body over 1 MB, an empty body and JSON primitives get a 4xx in the error shape and change nothing',
  auth: 'seed 001 Authentication: a missing, empty or wrong X-API-KEY gets a 401 in the error shape and changes nothing',
};

const applies = (op: Operation, group: Group) =>
  group === 'body' || group === 'transport'
    ? op.body !== null
    : group === 'params'
      ? op.parameters.length > 0
      : true;

describe('v1 fuzz (docs/adr-0002, bad input; seed 001, Errors)', () => {
  it('covers every operation of the bundled v1 document', () => {
    expect(OPERATIONS.length).toBe(17);
    expect(new Set(OPERATIONS.map((op) => op.operationId)).size).toBe(OPERATIONS.length);
  });

  describe.each(OPERATIONS.map((op) => [`${op.operationId} (${op.method} ${op.path})`, op] as const))(
    '%s',
    (_, op) => {
      for (const group of Object.keys(TITLES) as Group[]) {
        if (!applies(op, group)) continue;
        it(TITLES[group], { timeout: 60_000 }, async () => {
          const cases = (await casesOf(op)).filter((c) => c.group === group);
          expect(cases.length).toBeGreaterThan(0);
          const { problems, statuses } = await judgeAll(cases);
          expect(problems).toEqual([]);
          // The generated inputs must reach the handler: at least one of them is accepted.
          if (group === 'valid') expect(statuses.some((s) => s >= 200 && s < 300)).toBe(true);
        });
      }
    },
  );

  it('never a crash: after everything the server still answers GET /courses with 200', async () => {
    const a = await send({ method: 'GET', path: '/courses', headers: { 'x-api-key': DEMO_SITE_API_KEY } });
    expect(a.status).toBe(200);
    expect(a.body.courses.length).toBeGreaterThan(0);
  });
});
