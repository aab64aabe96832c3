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
import { operations } from '../../lib/spec-walk.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import {
  type AddCase,
  type Answer,
  FuzzEngine,
  type FuzzTable,
  isObject,
  pick,
  type Req,
  transportCases,
} from './fuzz-engine.ts';
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

interface Input {
  params: Record<string, string>;
  query?: string;
  body?: unknown;
}

let h: Harness;
let demoIds: Record<string, (string | number)[]>;

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
  console.log(`v1 fuzz: ${engine.requests} requests sent`);
  await h?.close();
});

beforeEach(() => restore());

/** Back to the demo seed (the state every case starts from). */
const restore = () => h.platform.load(DEMO);
const state = () => JSON.stringify(h.platform.snapshot());

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
      // The next ids after the path's (pick(ids, i)), so a group is never made its own parent.
      else
        out[name] = [sub.type].flat().includes('array')
          ? [pick(ids, i + 1), pick(ids, i + 2)]
          : pick(ids, i + 1);
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

// ---------------------------------------------------------------------------------------------
// Cases

/** Every case but the valid ones, from the accepted input. */
function cases(op: Operation, base: Input, add: AddCase<Group>) {
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
    const padded = Array.isArray(base.body)
      ? [...base.body, { pad: 'x'.repeat(1_100_000) }]
      : { ...(base.body as Node), pad: 'x'.repeat(1_100_000) };
    const raw = (
      what: string,
      body: string | Blob | undefined,
      contentType?: string,
      extra: Record<string, string> = {},
      expect: Expectation = 'refused',
    ) => {
      const headers: Record<string, string> = { 'x-api-key': DEMO_SITE_API_KEY, ...extra };
      if (contentType) headers['content-type'] = contentType;
      const req = request(op, base, { headers, body });
      if (body === undefined) delete req.body;
      add('transport', what, expect, req);
    };
    transportCases(
      raw,
      { text: JSON.stringify(base.body), padded },
      { field: 'name', formBody: 'name=x&email=y' },
    );
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

const table: FuzzTable<Group, Operation, Input> = {
  prefix: '/openapi/v1',
  operations: OPERATIONS,
  titles: TITLES,
  applies,
  harnessOf: () => h,
  state,
  restore,
  validInputs,
  validLabel: (i) => (i % 2 === 0 ? ' (demo ids)' : ''),
  request,
  cases,
  errorShapeProblem,
  readBacks,
};
const engine = new FuzzEngine(table);

describe('v1 fuzz (docs/adr-0002, bad input; seed 001, Errors)', () => {
  it('covers every operation of the bundled v1 document', () => {
    // Counted from the document itself (lib/spec-walk.ts), so a new operation is fuzzed, not forgotten.
    expect(OPERATIONS.map((op) => op.operationId).sort()).toEqual(
      operations(spec)
        .map((o) => o.operation.operationId)
        .sort(),
    );
  });

  engine.describeOperations();

  it('never a crash: after everything the server still answers GET /courses with 200', async () => {
    const a = await engine.send(h, {
      method: 'GET',
      path: '/courses',
      headers: { 'x-api-key': DEMO_SITE_API_KEY },
    });
    expect(a.status).toBe(200);
    expect(a.body.courses.length).toBeGreaterThan(0);
  });
});
