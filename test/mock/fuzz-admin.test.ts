// Property/fuzz test of the mock's admin API (`/__admin`), as Schemathesis would run it over the
// admin contract: every status the admin API answers is one its operation documents
// (openapi/README.md: "every status the mock can answer is documented on that operation"), bad
// input gets a 4xx in the `{error, code}` shape and changes nothing, and nothing answers a 5xx.
//
// For every operation of the bundled admin document (iterated from `paths`, not listed here):
// - valid inputs: the request body examples of the contract and bodies generated from its schemas
//   with json-schema-faker (seeded: the same every run); path parameters naming records of the
//   fixture (the demo seed, a webhook receiver with a delivery, an injected fault, the newest request
//   of the journal), query parameters their examples or generated values;
// - mutations of an input the mock accepted (fuzz-inputs.ts), bad path and query values whose
//   expectation is what the parameter's schema says of them (valid: anything but a 5xx; invalid: a
//   4xx), bad transports (JSON, content type, size) and a missing or wrong admin token.
// Each answer is judged with the state compared before and after: the platform's snapshot (without
// the keys' `lastUsedAt`) and the injected faults. The harness validates every JSON answer against
// the contract (`validateResponses`), so a 2xx that departs from it turns into a 500 and fails here.

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundlePath } from '../../lib/paths.ts';
import { operations, resolveRef } from '../../lib/spec-walk.ts';
import { VirtualClock } from '../../mock/domain/clock.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { coerce } from '../../mock/http/contract/coerce.ts';
import type { Fault, FaultInjector } from '../../mock/http/faults.ts';
import type { RequestJournal } from '../../mock/http/journal.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { startServer } from '../../mock/server.ts';
import {
  type AddCase,
  type Answer,
  type Case,
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
  bodyCases,
  type Expectation,
  fake,
  type Node,
  type Operation,
  operationsOf,
  type Parameter,
  pathCases,
  seedOf,
} from './fuzz-inputs.ts';
import type { Harness } from './harness.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const spec = JSON.parse(readFileSync(bundlePath('admin'), 'utf8')) as Node;
const deref = (node: Node | undefined) => resolveRef(spec, node);
const TOKEN = 'fuzz-admin-token';
const TENANT = 'demo';
/** Generated valid inputs per operation, besides the contract's body examples. */
const GENERATED_PER_OPERATION = 4;

interface AdminOperation extends Operation {
  /** Documented response statuses. */
  documented: string[];
  /** `security: []`: the operation needs no token (the health check). */
  open: boolean;
  bodyRequired: boolean;
  /** The request body examples of the contract, by name. */
  examples: unknown[];
}

const OPERATIONS: AdminOperation[] = operationsOf(spec).map((op) => {
  const raw = spec.paths[op.path][op.method.toLowerCase()] as Node;
  const requestBody = deref(raw.requestBody);
  const media = requestBody?.content?.['application/json'];
  return {
    ...op,
    documented: Object.keys(raw.responses),
    open: Array.isArray(raw.security) && raw.security.length === 0,
    bodyRequired: requestBody?.required === true,
    examples: Object.values((media?.examples ?? {}) as Record<string, Node>).map((e) => deref(e)?.value),
  };
});

type Group = 'valid' | 'body' | 'params' | 'transport' | 'auth';

interface Input {
  params: Record<string, string>;
  /** Encoded name and value pairs, in order. */
  query: [string, string][];
  body?: unknown;
}

/** The admin harness: the real app over a frozen clock, with its fault injector and journal at hand. */
let h: Harness;
let faults: FaultInjector;
let journal: RequestJournal;
let closeServer: () => Promise<void>;
let FIXTURE: { now: number; tenants: any[] };
/** Records of the fixture the path parameters name, by parameter name. */
let fixtureIds: Record<string, (string | number)[]>;

/** A fault that matches nothing the fuzz sends, so that deleteFault has one to delete. */
const STANDING_FAULT: Fault = {
  id: 'fault_900',
  method: 'GET',
  path: '/openapi/v1/__never_requested__',
  tool: null,
  remaining: 1,
  status: 503,
  latencyMs: null,
};

async function startAdminHarness(): Promise<void> {
  const state = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: state.now, frozen: true }), loadSeed);
  platform.load(state);
  const running = await startServer({
    platform,
    adminToken: TOKEN,
    validateResponses: true,
    version: 'test',
    webhooks: false,
  });
  faults = running.faults;
  journal = running.journal;
  // The engine reads `platform` and `base` only.
  h = { platform, base: running.url } as Harness;
  closeServer = running.close;
}

/** The demo seed plus what the webhook operations need: a receiver with a delivery of an event. */
function buildFixture() {
  const p = h.platform;
  p.run('createReceiver', {
    tenantId: TENANT,
    url: 'http://127.0.0.1:9/fuzz-hook',
    secret: 'fuzz-secret-0123456789',
    events: null,
  });
  p.run('publishCourse', { tenantId: TENANT, courseId: 46 });
  const snap = p.snapshot();
  FIXTURE = { now: snap.now, tenants: Object.values(snap.tenants) };
}

beforeAll(async () => {
  await startAdminHarness();
  buildFixture();
  restore();
  const t = h.platform.tenant(TENANT);
  fixtureIds = {
    tenantId: [TENANT],
    userId: [...t.users.keys()].filter((id) => id <= 13),
    courseId: [...t.courses.keys()].filter((id) => id <= 48),
    keyId: [...t.mcpKeys.keys()],
    receiverId: [...t.receivers.keys()],
    deliveryId: [...t.deliveries.keys()],
    faultId: [STANDING_FAULT.id],
  };
});

afterAll(async () => {
  console.log(`admin fuzz: ${engine.requests} requests sent`);
  await closeServer?.();
});

// The newest request of the journal is what getJournalEntry's valid inputs name: clearing the
// journal (clearRequestJournal) must not leave it without one.
beforeEach(async () => {
  if (!newestRequest()) await fetch(`${h.base}/openapi/v1/courses`);
});

/** The id of the newest request of the journal: its ring in memory answers at once. */
const newestRequest = () => (journal.list({}, 1) as { id: string }[])[0]?.id;

/** Back to the fixture and the one standing fault (the state every case starts from). */
function restore(): void {
  h.platform.load(FIXTURE);
  faults.inForce.length = 0;
  faults.inForce.push({ ...STANDING_FAULT });
}

/** The platform state (without the keys' `lastUsedAt`, which a v2 authentication stamps) and the faults. */
const state = () => JSON.stringify({ platform: stateWithoutKeyUse(h.platform), faults: faults.inForce });

// ---------------------------------------------------------------------------------------------
// Inputs

/** A path parameter's value naming a fixture record (the newest request for the journal). */
function fixtureValue(p: Parameter, i: number): string | number | undefined {
  if (p.name === 'requestId') return newestRequest();
  const ids = fixtureIds[p.name];
  return ids?.length ? pick(ids, i) : undefined;
}

/**
 * Valid inputs: the contract's body examples (with the parameters' examples and fixture records),
 * then generated ones, every other of which names fixture records too.
 */
function validInputs(op: AdminOperation): Input[] {
  const count = Math.max(GENERATED_PER_OPERATION, op.examples.length * 2);
  return Array.from({ length: count }, (_, i) => {
    const demo = i % 2 === 0;
    const seed = seedOf(op.operationId) + i;
    const params: Record<string, string> = {};
    const query: [string, string][] = [];
    for (const p of op.parameters) {
      const value = demo
        ? (fixtureValue(p, i / 2) ?? p.example ?? fake(p.schema, seed + seedOf(p.name)))
        : fake(p.schema, seed + seedOf(p.name));
      if (p.in === 'path') params[p.name] = encodeURIComponent(String(value));
      else if (demo || p.required || i % 4 === 1)
        query.push([encodeURIComponent(p.name), encodeURIComponent(String(value))]);
    }
    const input: Input = { params, query };
    if (op.body) {
      const example = demo ? op.examples[i / 2] : undefined;
      input.body = example !== undefined ? structuredClone(example) : fakeBody(op, seed);
    }
    return input;
  });
}

/**
 * A body generated from the operation's schema; where json-schema-faker cannot make one (a closed
 * object whose required properties it does not find: the fixtures' `ai`), the first example.
 */
function fakeBody(op: AdminOperation, seed: number): unknown {
  try {
    return fake(op.body as Node, seed);
  } catch {
    return structuredClone(op.examples[0] ?? {});
  }
}

const queryString = (pairs: [string, string][]) => pairs.map(([n, v]) => `${n}=${v}`).join('&');

function request(op: AdminOperation, input: Input, over: Partial<Req> = {}): Req {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => input.params[name] ?? '');
  const headers: Record<string, string> = op.open ? {} : { authorization: `Bearer ${TOKEN}` };
  if (input.body !== undefined) headers['content-type'] = 'application/json';
  const query = queryString(input.query);
  return {
    method: op.method,
    path,
    ...(query ? { query } : {}),
    headers,
    ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
    ...over,
  };
}

// ---------------------------------------------------------------------------------------------
// Cases

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
const validators = new Map<Node, (v: unknown) => boolean>();
/** What a parameter's schema says of a raw (percent-encoded) value, read as the mock reads it. */
function expectationOf(p: Parameter, raw: string): Expectation {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return 'refused';
  }
  let validate = validators.get(p.schema);
  if (!validate) {
    validate = ajv.compile(p.schema) as (v: unknown) => boolean;
    validators.set(p.schema, validate);
  }
  return validate(coerce(text, p.schema)) ? 'probe' : 'refused';
}

/** Raw query values for any parameter; which are refused is the parameter's schema's to say. */
const QUERY_VALUES: [string, string][] = [
  ['negative', '-1'],
  ['zero', '0'],
  ['huge 99999999999999999999', '99999999999999999999'],
  ['beyond MAX_SAFE_INTEGER', '9007199254740993'],
  ['non-numeric', 'abc'],
  ['non-integer', '1.5'],
  ['empty', ''],
  ['NUL', '%00'],
  ['emoji', '%F0%9F%98%80'],
  ['not in any enum', '__not_in_enum__'],
  ['a boolean word', 'yes'],
  ['10k chars', 'x'.repeat(10_000)],
];

/** Every case but the valid ones, from the accepted input. */
function cases(op: AdminOperation, base: Input, add: AddCase<Group>) {
  if (op.body)
    for (const c of bodyCases(op.body, base.body))
      add('body', c.id, c.expect, request(op, { ...base, body: c.body }));

  for (const p of op.parameters) {
    if (p.in === 'path') {
      for (const [label, raw] of pathCases(p))
        add(
          'params',
          `${p.name} ${label}`,
          expectationOf(p, raw),
          request(op, { ...base, params: { ...base.params, [p.name]: raw } }),
        );
    } else {
      const name = encodeURIComponent(p.name);
      const rest = base.query.filter(([n]) => n !== name);
      for (const [label, raw] of QUERY_VALUES)
        add(
          'params',
          `${p.name} ${label}`,
          expectationOf(p, raw),
          request(op, { ...base, query: [...rest, [name, raw]] }),
        );
      add(
        'params',
        `${p.name} repeated`,
        'refused',
        request(op, { ...base, query: [...rest, [name, '1'], [name, '2']] }),
      );
      if (p.required) add('params', `${p.name} missing`, 'refused', request(op, { ...base, query: rest }));
    }
  }
  // Parameters the operation does not have are ignored, whatever they hold.
  add(
    'params',
    'unknown query parameters',
    'probe',
    request(op, { ...base, query: [...base.query, ['fuzz', '%00'], ['__proto__', '1'], ['tenantId', '-1']] }),
  );

  if (op.body) {
    const padded = isObject(base.body)
      ? { ...base.body, pad: 'x'.repeat(1_100_000) }
      : { pad: 'x'.repeat(1_100_000) };
    const raw = (
      what: string,
      body: string | Blob | undefined,
      contentType?: string,
      extra: Record<string, string> = {},
      expect: Expectation = 'refused',
    ) => {
      const headers: Record<string, string> = { ...request(op, base).headers, ...extra };
      delete headers['content-type'];
      if (contentType) headers['content-type'] = contentType;
      const req = request(op, base, { headers, body });
      if (body === undefined) delete req.body;
      add('transport', what, expect, req);
    };
    transportCases(
      raw,
      { text: JSON.stringify(base.body), padded },
      {
        field: 'seconds',
        formBody: 'seconds=1&now=1',
        array: true,
        noBody: op.bodyRequired ? 'refused' : 'probe',
      },
    );
  }

  if (!op.open) {
    const auth = (what: string, headers: Record<string, string>, query?: string) => {
      const req = request(op, base);
      const { authorization: _, ...rest } = req.headers;
      add(
        'auth',
        what,
        'refused',
        {
          ...req,
          headers: { ...rest, ...headers },
          ...(query ? { query: req.query ? `${req.query}&${query}` : query } : {}),
        },
        401,
      );
    };
    auth('no Authorization', {});
    auth('an empty Authorization', { authorization: '' });
    auth('a wrong token', { authorization: 'Bearer wrong-token' });
    auth('the token without its Bearer scheme', { authorization: TOKEN });
    auth('the token as Basic', {
      authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}`,
    });
    auth('the token with its last character changed', { authorization: `Bearer ${TOKEN.slice(0, -1)}X` });
    auth('the token as a query parameter', {}, `token=${TOKEN}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Judging

/** What is wrong with an error answer, judged against the admin error object `{error, code}`. */
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

const undocumented = (op: AdminOperation, status: number) =>
  !op.documented.includes(String(status)) && !op.documented.includes('default');

/** Every GET of the platform's records (the journal's own reads aside), naming fixture records. */
function readBacks(): Req[] {
  return OPERATIONS.filter((op) => op.method === 'GET' && !op.path.startsWith('/journal')).flatMap((op) => {
    const params: Record<string, string> = {};
    for (const p of op.parameters.filter((q) => q.in === 'path')) {
      const value = fixtureIds[p.name]?.[0] ?? p.example;
      params[p.name] = encodeURIComponent(String(value));
    }
    return [request(op, { params, query: [] })];
  });
}

const TITLES: Record<Group, string> = {
  valid:
    'valid inputs (the contract examples and bodies generated from its schemas) never get a 5xx or an undocumented status, and any refusal among them is in the admin error shape and changes nothing',
  body: 'body mutations (missing required, wrong types, out-of-range numbers, bad strings, odd Unicode, extra keys) get a documented 4xx in the admin error shape and change nothing — or, where the contract allows them, a documented status',
  params:
    'path and query values (negative, huge, non-numeric, odd Unicode, repeated, missing) get a documented 4xx when their schema refuses them, a documented status when it allows them, and change nothing when refused',
  transport:
    'malformed JSON, a wrong content type, a body over 1 MB, an empty body and JSON primitives get a documented 4xx in the admin error shape and change nothing',
  auth: 'a missing, empty or wrong admin token, or one without its Bearer scheme, gets a documented 401 in the admin error shape and changes nothing',
};

const table: FuzzTable<Group, AdminOperation, Input> = {
  prefix: '/__admin',
  operations: OPERATIONS,
  titles: TITLES,
  applies: (op, group) =>
    group === 'body' || group === 'transport'
      ? op.body !== null
      : group === 'params'
        ? op.parameters.length > 0
        : group === 'auth'
          ? !op.open
          : true,
  harnessOf: () => h,
  state,
  restore,
  validInputs,
  validLabel: (i) => (i % 2 === 0 ? ' (contract examples, fixture records)' : ''),
  request,
  cases,
  errorShapeProblem,
  readBacks,
};

/** The engine, judging every answer's status against the operation's documented ones, 2xx included. */
class AdminFuzzEngine extends FuzzEngine<Group, AdminOperation, Input> {
  override async judge(op: AdminOperation, c: Case<Group>) {
    const judged = await super.judge(op, c);
    if (!undocumented(op, judged.status)) return judged;
    const problem = `${c.id} → status ${judged.status} is not documented for ${op.operationId} (${op.documented.join(', ')})`;
    return { ...judged, problem: judged.problem ? `${judged.problem}; ${problem}` : problem };
  }
}
const engine = new AdminFuzzEngine(table);

describe('admin fuzz (openapi/README.md: every status the mock can answer is documented; docs/adr-0002, bad input)', () => {
  it('covers every operation of the bundled admin document', () => {
    // Counted from the document itself (lib/spec-walk.ts), so a new operation is fuzzed, not forgotten.
    expect(OPERATIONS.map((op) => op.operationId).sort()).toEqual(
      operations(spec)
        .map((o) => o.operation.operationId)
        .sort(),
    );
    // Every operation with a request body is fuzzed through JSON.
    for (const op of OPERATIONS)
      if (deref((spec.paths[op.path][op.method.toLowerCase()] as Node).requestBody))
        expect(op.body, op.operationId).not.toBeNull();
  });

  engine.describeOperations();

  it('never a crash: after everything the server still answers GET /__admin/health and /clock with 200', async () => {
    const health = await engine.send(h, { method: 'GET', path: '/health', headers: {} });
    expect(health.status, show(health)).toBe(200);
    const clock = await engine.send(h, {
      method: 'GET',
      path: '/clock',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(clock.status, show(clock)).toBe(200);
  });
});
