// Property/fuzz test of the /api/v2 backend (docs/adr-0002, bad input and bounds), over every v2
// operation: bad input gets a clear 4xx in the v2 error shape and changes nothing —
// malformed JSON, wrong content type, bodies over 1 MB, wrong types, negative or huge ids and offsets,
// unknown ids, odd Unicode; never a 5xx, never a crash.
//
// For every operation of the bundled v2 document (iterated from `paths`, not listed here):
// - valid inputs generated from its schemas with json-schema-faker (seeded: the same every run), half
//   of them naming records of the fixture (the demo seed plus an upload session, two generation jobs
//   and a banned user), so that the handlers really run;
// - mutations of an input the mock accepted (fuzz-inputs.ts, with v2's references: fuzz-v2-inputs.ts);
// - bad path ids and query parameters, bad transports (JSON, content type, size), and for the upload
//   hand-built multipart bodies;
// - missing or wrong keys, in a second harness whose failed-login limit cannot interfere.
// Each answer is judged with the state compared before and after (`snapshot()`, without the keys'
// `lastUsedAt`, which every successful authentication stamps). The harness validates every answer
// against the contract, so a 2xx (or a domain error) that departs from it turns into a 500 and fails
// here too. A request that changed the state is followed by reads of every GET operation and the
// fixture is restored — which also gives the AI quota (5 calls per key per day) back.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePath } from '../../lib/paths.ts';
import { operations, resolveRef } from '../../lib/spec-walk.ts';
import type { TenantState } from '../../mock/domain/tenant-state.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import {
  type AddCase,
  type Answer,
  FuzzEngine,
  type FuzzTable,
  isObject,
  pick,
  type Req,
  show,
  stateWithoutKeyUse,
  transportCases,
} from './fuzz-engine.ts';
import {
  type Expectation,
  fake,
  inline,
  type Node,
  type Operation,
  operationsOf,
  pathCases,
  seedOf,
} from './fuzz-inputs.ts';
import {
  bigNumberBodies,
  bodyCasesV2,
  enumPathCases,
  type Kind,
  kindOfName,
  MULTIPART,
  multipart,
  type Part,
  queryCasesOf,
  SAMPLE_FILES,
  uploadCases,
} from './fuzz-v2-inputs.ts';
import { DEMO_SITE_API_KEY, type Harness, READ_KEY, startHarness, WRITE_KEY } from './harness.ts';

const spec = JSON.parse(readFileSync(bundlePath('v2'), 'utf8')) as Node;
const DEMO = loadSeed('demo');
const TENANT = 'demo';
/** Valid inputs generated per operation; the even ones name fixture records. */
const VALID_PER_OPERATION = 6;

const deref = (node: Node | undefined) => resolveRef(spec, node);

interface V2Operation extends Operation {
  /** The multipart form schema (the upload), or null. */
  form: Node | null;
  /** The file types the form's `file` part may have (its `encoding`). */
  fileTypes: string[];
  bodyRequired: boolean;
  /** Documented response statuses. */
  documented: string[];
  write: boolean;
  aiQuota: boolean;
}

const OPERATIONS: V2Operation[] = operationsOf(spec).map((op) => {
  const raw = spec.paths[op.path][op.method.toLowerCase()] as Node;
  const requestBody = deref(raw.requestBody);
  const form = requestBody?.content?.['multipart/form-data'];
  return {
    ...op,
    form: form ? inline(spec, form.schema) : null,
    fileTypes: String(form?.encoding?.file?.contentType ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    bodyRequired: requestBody?.required === true,
    documented: Object.keys(raw.responses),
    write: raw['x-scope'] === 'write',
    aiQuota: raw['x-ai-quota'] === true,
  };
});

type Group = 'valid' | 'body' | 'params' | 'transport' | 'upload' | 'auth';

interface Input {
  params: Record<string, string>;
  /** Encoded name and value pairs, in order. */
  query: [string, string][];
  body?: unknown;
  form?: Part[];
}

/** The main harness (default limits) and one for the key cases, whose failed-login limit cannot trip. */
let h: Harness;
let ha: Harness;
let FIXTURE: { now: number; tenants: any[] };
/** Records the valid inputs name (the brief's demo ids: users 1–13, groups, courses, chain 1, course 1's elements). */
let demoIds: Record<Kind, (string | number)[]>;
/** Every record of the fixture, by kind, as strings: what a reference may name. */
let existing: Record<Kind, Set<string>>;
let bannedUser: number;
const typesOf = (schema: Node): string[] => ([] as string[]).concat(schema.type ?? []);

/** Every record of a tenant that a v2 id can name, by kind. */
function idsOf(t: TenantState): Record<Kind, (string | number)[]> {
  const elements = [...t.courses.values()].flatMap((c) => c.structure.elements);
  return {
    user: [...t.users.keys()],
    group: [...t.groups.keys()],
    course: [...t.courses.keys()],
    chain: [...t.chains.keys()],
    question: elements.filter((e) => e.type === 'question').map((e) => e.id),
    lesson: elements.filter((e) => e.type === 'lesson').map((e) => e.id),
    job: [...t.jobs.keys()],
    session: [...t.uploads.keys()],
    file: [...t.uploads.values()].flatMap((s) => s.files.map((f) => f.id)),
  };
}

/** The demo seed plus what the AI operations need to exist: an upload, a finished and a queued job, a banned user. */
function buildFixture(hh: Harness) {
  const p = hh.platform;
  p.load(DEMO);
  p.run('recordUpload', {
    tenantId: TENANT,
    filename: 'policy.pdf',
    mimeType: 'application/pdf',
    size: 1234,
    chunks: ['Phishing awareness: check the sender, hover before you click.'],
  });
  const done = p.run('createJob', {
    tenantId: TENANT,
    actorId: 1,
    input: { prompt: 'Information security basics' },
  });
  p.run('advanceClock', { seconds: 60 });
  p.run('settleJob', { tenantId: TENANT, jobId: done.id });
  p.run('createJob', {
    tenantId: TENANT,
    actorId: 1,
    input: { prompt: 'A queued course on time management' },
  });
  const banned = p.run('banV2', { tenantId: TENANT, actorId: 1, userId: 12 });
  const snap = p.snapshot();
  return { fixture: { now: snap.now, tenants: Object.values(snap.tenants) }, banned: banned.id };
}

beforeAll(async () => {
  h = await startHarness();
  ha = await startHarness('demo', { requestsPerMinute: 0, failedAuthMax: 1_000_000 });
  const built = buildFixture(h);
  FIXTURE = built.fixture;
  bannedUser = built.banned;
  restore(h);
  restore(ha);
  const t = h.platform.tenant(TENANT);
  const all = idsOf(t);
  existing = Object.fromEntries(
    Object.entries(all).map(([k, ids]) => [k, new Set(ids.map(String))]),
  ) as Record<Kind, Set<string>>;
  const course1 = t.courses.get(1)?.structure.elements ?? [];
  demoIds = {
    ...all,
    user: [...t.users.keys()].filter((id) => id <= 13),
    course: [...t.courses.keys()].filter((id) => id <= 48),
    chain: [...t.chains.values()].filter((c) => c.ownerId === 1).map((c) => c.id),
    question: course1.filter((e) => e.type === 'question').map((e) => e.id),
    lesson: course1.filter((e) => e.type === 'lesson').map((e) => e.id),
  };
});

afterAll(async () => {
  console.log(`v2 fuzz: ${engine.requests} requests sent`);
  await h?.close();
  await ha?.close();
});

/** Back to the fixture (the state every case starts from; the AI quota counters are zero in it). */
const restore = (hh: Harness) => hh.platform.load(FIXTURE);
/** The state, without the keys' `lastUsedAt` (a successful authentication stamps it). */
const state = (hh: Harness) => JSON.stringify(stateWithoutKeyUse(hh.platform));

// ---------------------------------------------------------------------------------------------
// Inputs

const demoIdsOf = (name: string) => {
  const kind = kindOfName(name);
  return kind ? demoIds[kind] : [];
};

/** The body with its references pointed at fixture records. */
function withDemoIds(schema: Node, body: unknown, i: number): unknown {
  if (!isObject(body) || !schema.properties) return body;
  const out: Node = { ...body };
  for (const [name, sub] of Object.entries(schema.properties as Record<string, Node>)) {
    if (!(name in out)) continue;
    const ids = demoIdsOf(name);
    if (ids.length)
      out[name] = typesOf(sub).includes('array') ? [pick(ids, i), pick(ids, i + 1)] : pick(ids, i);
    else if (isObject(out[name])) out[name] = withDemoIds(sub, out[name], i);
  }
  return out;
}

/** A multipart form from the form schema: a sample file of one allowed type, and the other fields. */
function formOf(op: V2Operation, i: number, demo: boolean, seed: number): Part[] {
  const parts: Part[] = [];
  for (const [name, sub] of Object.entries((op.form?.properties ?? {}) as Record<string, Node>)) {
    if (sub.format === 'binary') {
      const type = pick(op.fileTypes, i);
      const sample = SAMPLE_FILES[type];
      if (!sample) throw new Error(`no sample file of type ${type}`);
      parts.push({ name, filename: sample.filename, contentType: type, data: sample.data });
      continue;
    }
    const ids = demoIdsOf(name);
    if (demo && ids.length) parts.push({ name, data: String(pick(ids, i / 2)) });
    else if (op.form?.required?.includes(name) || i % 4 === 1)
      parts.push({ name, data: String(fake(sub, seed)) });
  }
  return parts;
}

/** Valid inputs from the schemas; the even ones use fixture ids and the parameter examples. */
function validInputs(op: V2Operation): Input[] {
  const count = op.form ? Math.max(VALID_PER_OPERATION, op.fileTypes.length) : VALID_PER_OPERATION;
  return Array.from({ length: count }, (_, i) => {
    const demo = i % 2 === 0;
    const seed = seedOf(op.operationId) + i;
    const params: Record<string, string> = {};
    const query: [string, string][] = [];
    for (const p of op.parameters) {
      const ids = demoIdsOf(p.name);
      const value =
        demo && p.in === 'query' && p.example !== undefined
          ? p.example
          : demo && ids.length
            ? pick(ids, i / 2)
            : fake(p.schema, seed + seedOf(p.name));
      if (p.in === 'path') params[p.name] = encodeURIComponent(String(value));
      else query.push([encodeURIComponent(p.name), encodeURIComponent(String(value))]);
    }
    const input: Input = { params, query };
    if (op.body) {
      const body = fake(op.body, seed);
      input.body = demo ? withDemoIds(op.body, body, i / 2) : body;
    }
    if (op.form) input.form = formOf(op, i, demo, seed);
    return input;
  });
}

const queryString = (pairs: [string, string][]) => pairs.map(([n, v]) => `${n}=${v}`).join('&');

function request(op: V2Operation, input: Input, over: Partial<Req> = {}): Req {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => input.params[name] ?? '');
  const headers: Record<string, string> = { 'x-mcp-key': WRITE_KEY };
  let body: Req['body'];
  if (input.form) {
    headers['content-type'] = MULTIPART;
    body = new Uint8Array(multipart(input.form));
  } else if (input.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.body);
  }
  const query = queryString(input.query);
  return {
    method: op.method,
    path,
    ...(query ? { query } : {}),
    headers,
    ...(body !== undefined ? { body } : {}),
    ...over,
  };
}

// ---------------------------------------------------------------------------------------------
// Cases

/** Every case but the valid ones, from the accepted input. */
function cases(op: V2Operation, base: Input, add: AddCase<Group>) {
  const known = (kind: Kind) => existing[kind];

  if (op.body) {
    for (const c of bodyCasesV2(op.body, base.body, known))
      add('body', c.id, c.expect, request(op, { ...base, body: c.body }));
    for (const c of bigNumberBodies(op.body, base.body))
      add('body', c.id, 'refused', request(op, base, { body: c.text }));
    // A user the fixture has banned: named in a body, it must be refused in a documented way.
    for (const [name, sub] of Object.entries((op.body.properties ?? {}) as Record<string, Node>))
      if (kindOfName(name) === 'user' && isObject(base.body)) {
        const v = typesOf(sub).includes('array') ? [bannedUser] : bannedUser;
        add(
          'body',
          `/${name} a banned user (${bannedUser})`,
          'probe',
          request(op, { ...base, body: { ...base.body, [name]: v } }),
        );
      }
  }

  for (const p of op.parameters) {
    if (p.in === 'path') {
      for (const [label, raw] of [...pathCases(p), ...enumPathCases(p)])
        add(
          'params',
          `${p.name} ${label}`,
          'refused',
          request(op, { ...base, params: { ...base.params, [p.name]: raw } }),
        );
    } else {
      const name = encodeURIComponent(p.name);
      for (const c of queryCasesOf(p, existing[kindOfName(p.name) as Kind] ?? new Set())) {
        const rest = base.query.filter(([n]) => n !== name);
        const query: [string, string][] =
          c.raw === null ? rest : c.repeated ? [...rest, [name, '1'], [name, '2']] : [...rest, [name, c.raw]];
        add('params', c.id, c.expect, request(op, { ...base, query }));
      }
    }
  }
  // Parameters the operation does not have are ignored, whatever they hold.
  add(
    'params',
    'unknown query parameters',
    'probe',
    request(op, {
      ...base,
      query: [...base.query, ['fuzz', '%00'], ['__proto__', '1'], ['fields%5Bx%5D', '-1']],
    }),
  );

  if (op.body) {
    const padded = { ...(base.body as Node), pad: 'x'.repeat(1_100_000) };
    const raw = (
      what: string,
      body: string | Blob | undefined,
      contentType?: string,
      extra: Record<string, string> = {},
      expect: Expectation = 'refused',
    ) => {
      const headers: Record<string, string> = { 'x-mcp-key': WRITE_KEY, ...extra };
      if (contentType) headers['content-type'] = contentType;
      const req = request(op, base, { headers, body });
      if (body === undefined) delete req.body;
      add('transport', what, expect, req);
    };
    // Without a body a regeneration is a valid request ("omitted means a generic clearer version").
    transportCases(
      raw,
      { text: JSON.stringify(base.body), padded },
      {
        field: 'feedback',
        formBody: 'feedback=x&userId=1',
        multipart: {
          body: multipart([{ name: 'feedback', data: 'x' }]).toString('latin1'),
          contentType: MULTIPART,
        },
        array: true,
        noBody: op.bodyRequired ? 'refused' : 'probe',
      },
    );
  }

  if (op.form)
    for (const c of uploadCases(base.form ?? [])) {
      const headers: Record<string, string> = { 'x-mcp-key': WRITE_KEY };
      if (c.contentType) headers['content-type'] = c.contentType;
      const req = request(op, base, {
        headers,
        ...(c.body !== undefined
          ? { body: typeof c.body === 'string' ? c.body : new Uint8Array(c.body) }
          : {}),
      });
      if (c.body === undefined) delete req.body;
      add('upload', c.id, c.expect, req, c.status);
    }

  const auth = (what: string, headers: Record<string, string>, status = 401, query?: string) => {
    const req = request(op, base);
    const { 'x-mcp-key': _, ...rest } = req.headers;
    add(
      'auth',
      what,
      'refused',
      {
        ...req,
        headers: { ...rest, ...headers },
        ...(query ? { query: req.query ? `${req.query}&${query}` : query } : {}),
      },
      status,
    );
  };
  auth('no X-MCP-Key', {});
  auth('an empty X-MCP-Key', { 'x-mcp-key': '' });
  auth('a wrong X-MCP-Key', { 'x-mcp-key': 'wrong-key' });
  auth('the write key in upper case', { 'x-mcp-key': WRITE_KEY.toUpperCase() });
  auth('the write key with its last character changed', {
    'x-mcp-key': `${WRITE_KEY.slice(0, -1)}${WRITE_KEY.endsWith('A') ? 'B' : 'A'}`,
  });
  auth('the write key truncated by one character', { 'x-mcp-key': WRITE_KEY.slice(0, -1) });
  auth('a well-formed key that was never issued', { 'x-mcp-key': `lmcp_${'A'.repeat(43)}` });
  auth('a Latin-1 key', { 'x-mcp-key': 'lmcp_caf\u00e9' });
  auth('the v1 site key as X-MCP-Key', { 'x-mcp-key': DEMO_SITE_API_KEY });
  auth('the write key as Authorization: Bearer', { authorization: `Bearer ${WRITE_KEY}` });
  auth('the write key as a query parameter', {}, 401, `x-mcp-key=${encodeURIComponent(WRITE_KEY)}`);
  if (op.write) auth('the read-only key on a write operation', { 'x-mcp-key': READ_KEY }, 403);
}

// ---------------------------------------------------------------------------------------------
// Judging

/** What is wrong with an error answer, judged against the v2 error object `{error, code}`. */
function errorShapeProblem(a: Answer): string | null {
  if (!a.contentType?.startsWith('application/json')) return `content type ${a.contentType}, not JSON`;
  const b = a.body;
  if (!isObject(b)) return 'the body is not a JSON object';
  if (typeof b.error !== 'string' || !b.error.trim()) return 'no error message';
  if (typeof b.code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(b.code))
    return `code ${JSON.stringify(b.code)}`;
  const extra = Object.keys(b).filter((k) => k !== 'error' && k !== 'code');
  return extra.length ? `unknown keys ${extra.join(', ')}` : null;
}

/** Every GET operation, reading the fixture's first record and the newest one of each kind, every scope. */
function readBacks(hh: Harness): Req[] {
  const now = idsOf(hh.platform.tenant(TENANT));
  return OPERATIONS.filter((op) => op.method === 'GET').flatMap((op) => {
    let inputs: Input[] = [{ params: {}, query: [] }];
    for (const p of op.parameters) {
      const kind = kindOfName(p.name);
      const ids = kind ? now[kind] : [];
      const values: unknown[] =
        p.in === 'query'
          ? [p.schema.maximum ?? p.example]
          : p.schema.enum
            ? p.schema.enum
            : [...new Set([ids[0], ids.at(-1)])];
      if (p.in === 'query' && !p.required && p.schema.maximum === undefined) continue;
      inputs = inputs.flatMap((input) =>
        values.map((v) =>
          p.in === 'path'
            ? { ...input, params: { ...input.params, [p.name]: encodeURIComponent(String(v)) } }
            : {
                ...input,
                query: [...input.query, [encodeURIComponent(p.name), encodeURIComponent(String(v))]],
              },
        ),
      ) as Input[];
    }
    return inputs.map((input) => request(op, input));
  });
}

/** A refusal's status must be documented for the operation, and a 429 must say when to retry. */
function refusalProblems(op: V2Operation, a: Answer): string[] {
  const problems: string[] = [];
  if (!op.documented.includes(String(a.status)) && !op.documented.includes('default'))
    problems.push(`status ${a.status} is not documented for ${op.operationId}`);
  if (a.status === 429 && !a.retryAfter) problems.push('a 429 without Retry-After');
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Tests

const TITLES: Record<Group, string> = {
  valid:
    'valid inputs generated from its schemas (json-schema-faker) never get a 5xx, and any refusal among them is in the v2 error shape and changes nothing',
  body: 'body mutations (missing required, wrong types, out-of-range numbers, bad strings, odd Unicode, unknown and huge ids, extra keys) get a 4xx in the v2 error shape and change nothing — or, where the contract allows them, never a 5xx',
  params:
    'bad path ids (negative, huge, non-numeric, unknown, odd Unicode, unknown enum values) and query parameters (missing, wrong types, out of bounds) get a 4xx in the v2 error shape and change nothing',
  transport:
    'malformed JSON, a wrong content type, a body over 1 MB, an empty body and JSON primitives get a 4xx in the v2 error shape and change nothing',
  upload:
    'bad multipart uploads (no file part, empty file, wrong type, bad sessionId, over 20 MB, not multipart) get 400/413/415 in the v2 error shape and change nothing',
  auth: 'seed 000 Authentication: a missing, empty or wrong X-MCP-Key gets a 401 (a read-only key on a write operation a 403) in the v2 error shape and changes nothing',
};

const applies = (op: V2Operation, group: Group) =>
  group === 'body' || group === 'transport' ? op.body !== null : group === 'upload' ? op.form !== null : true;

const table: FuzzTable<Group, V2Operation, Input> = {
  prefix: '/api/v2',
  operations: OPERATIONS,
  titles: TITLES,
  applies,
  harnessOf: (group) => (group === 'auth' ? ha : h),
  state,
  restore,
  validInputs,
  validLabel: (i) => (i % 2 === 0 ? ' (fixture ids)' : ''),
  request,
  cases,
  errorShapeProblem,
  refusalProblems,
  readBacks,
};
const engine = new FuzzEngine(table);
const send = engine.send.bind(engine);

describe('v2 fuzz (docs/adr-0002, bad input; seed 000, Errors)', () => {
  it('covers every operation of the bundled v2 document', () => {
    // Counted from the document itself (lib/spec-walk.ts), so a new operation is fuzzed, not forgotten.
    expect(OPERATIONS.map((op) => op.operationId).sort()).toEqual(
      operations(spec)
        .map((o) => o.operation.operationId)
        .sort(),
    );
    // Every operation with a request body is fuzzed through JSON or through the multipart form.
    for (const op of OPERATIONS)
      if (deref((spec.paths[op.path][op.method.toLowerCase()] as Node).requestBody))
        expect(op.body ?? op.form, op.operationId).not.toBeNull();
  });

  engine.describeOperations((op) => {
    if (op.aiQuota)
      it('seed 000 Limits: past the quota of 5 AI calls per key a valid input gets 429 in the v2 error shape and changes nothing; a fresh key (h.newKey) is not refused', async () => {
        restore(h);
        const base = await engine.acceptedInput(op);
        const req = request(op, base);
        for (let k = 0; k < 5; k++) {
          const a = await send(h, req);
          expect(a.status, show(a)).toBeLessThan(300);
        }
        const before = state(h);
        const refused = await send(h, req);
        expect(refused.status, show(refused)).toBe(429);
        expect(errorShapeProblem(refused)).toBeNull();
        expect(refused.body.code).toBe('MCP_RATE_LIMITED');
        expect(Number(refused.retryAfter)).toBeGreaterThan(0);
        expect(state(h)).toBe(before);
        const fresh = await h.newKey(1, ['read', 'write']);
        const other = await send(h, { ...req, headers: { ...req.headers, 'x-mcp-key': fresh.key } });
        expect(other.status, show(other)).toBeLessThan(300);
        restore(h);
      });
  });

  it('never a crash: after everything the server still answers GET /mcp/capabilities with 200', async () => {
    const a = await send(h, {
      method: 'GET',
      path: '/mcp/capabilities',
      headers: { 'x-mcp-key': WRITE_KEY },
    });
    expect(a.status).toBe(200);
    expect(a.body.tools.length).toBeGreaterThan(0);
    const b = await send(ha, {
      method: 'GET',
      path: '/mcp/capabilities',
      headers: { 'x-mcp-key': WRITE_KEY },
    });
    expect(b.status).toBe(200);
  });
});
