// The contracts exported for Dredd 14 (lib/dredd-export.ts) and the hooks Dredd runs with them
// (tools/dredd/hooks.js), without Dredd: the export is OpenAPI 3.0.3 with nothing of 3.1 left, one
// 2xx answer per operation as the mock sends it, an order in which what a request needs from an
// earlier answer comes first, and each answer's draft-07 schema accepting what the contract's
// examples show; the hooks send the demo keys, skip, fill ids from answers, build the upload and
// hand Dredd the schema. Dredd itself runs them in `npm run cross-check` (scripts/dredd-checks.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';
import { dreddCount } from '../scripts/dredd-checks.ts';
import {
  BODY_SCHEMA,
  DREDD_APIS,
  DREDD_PLANS,
  type DreddApi,
  dreddExport,
  JSON_SCHEMA_ROOT,
  MOCK_JSON_CONTENT_TYPE,
  NULL_ONLY,
  schemaTo30,
  schemaToDraft07,
} from './dredd-export.ts';
import { bundlePath, ROOT } from './paths.ts';
import { redocly } from './redocly.ts';
import { type Node, operations, resolveRef } from './spec-walk.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const contract = (api: DreddApi): Node => JSON.parse(readFileSync(bundlePath(api), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'lmskit-dredd-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Keys whose values are data (an example, allowed values), not part of the description. */
const DATA = new Set(['example', 'enum', 'default']);

/**
 * Every object of the description with the path to it, not looking inside `x-` extensions or data;
 * a map of names (a schema's `properties`) is not yielded itself, its values are.
 */
function* objects(node: unknown, path: string[] = []): Generator<[Node, string[]]> {
  if (Array.isArray(node)) for (const [i, v] of node.entries()) yield* objects(v, [...path, String(i)]);
  else if (node && typeof node === 'object') {
    if (path.at(-1) !== 'properties') yield [node as Node, path];
    for (const [k, v] of Object.entries(node))
      if (!k.startsWith('x-') && !DATA.has(k)) yield* objects(v, [...path, k]);
  }
}

/** The schema the hooks give Dredd for one answer, compiled as draft-07 (Dredd validates with ajv 6). */
function bodyValidator(doc: Node, schema: Node) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const root = doc[JSON_SCHEMA_ROOT];
  return ajv.compile({ $schema: root.$schema, [JSON_SCHEMA_ROOT]: root, allOf: [schema] });
}

describe('schemaTo30: JSON Schema 2020-12 in OpenAPI 3.0.3 words', () => {
  it.each([
    ['a type with null', { type: ['integer', 'null'] }, { type: 'integer', nullable: true }],
    [
      'several types, one of them null',
      { type: ['string', 'array', 'null'], items: { type: 'string' } },
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { ...NULL_ONLY }] },
    ],
    ['null alone', { type: 'null' }, { ...NULL_ONLY }],
    [
      'a oneOf with a null branch',
      { oneOf: [{ $ref: '#/components/schemas/Image' }, { type: 'null', description: 'None.' }] },
      { oneOf: [{ $ref: '#/components/schemas/Image' }, { ...NULL_ONLY, description: 'None.' }] },
    ],
    ['const', { const: 'completed' }, { enum: ['completed'] }],
    ['examples', { type: 'integer', examples: [42, 7] }, { type: 'integer', example: 42 }],
    [
      'a numeric exclusive bound',
      { type: 'number', exclusiveMinimum: 0 },
      { type: 'number', minimum: 0, exclusiveMinimum: true },
    ],
    [
      'keywords 3.0 lacks, a $ref’s siblings, extensions',
      {
        type: 'object',
        'x-assumed': true,
        if: { required: ['a'] },
        else: { required: ['b'] },
        unevaluatedProperties: false,
        properties: { a: { $ref: '#/components/schemas/A', description: 'An A.' } },
      },
      { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } },
    ],
    ['an array without items', { type: 'array' }, { type: 'array', items: {} }],
  ])('%s', (_what, schema, expected) => {
    expect(schemaTo30(schema)).toEqual(expected);
  });
});

describe('schemaToDraft07: the contract’s schema as Dredd validates an answer with it', () => {
  it('points references at the export’s definitions, and keeps a $ref’s siblings in force', () => {
    expect(schemaToDraft07({ $ref: '#/components/schemas/User' })).toEqual({
      $ref: `#/${JSON_SCHEMA_ROOT}/definitions/User`,
    });
    expect(schemaToDraft07({ $ref: '#/components/schemas/User', maxProperties: 3 })).toEqual({
      maxProperties: 3,
      allOf: [{ $ref: `#/${JSON_SCHEMA_ROOT}/definitions/User` }],
    });
  });

  it('translates prefixItems and dependentRequired, drops what draft-07 or ajv 6 lacks, keeps values alone', () => {
    expect(
      schemaToDraft07({
        type: 'array',
        prefixItems: [{ type: 'string' }],
        items: { type: 'integer' },
        unevaluatedItems: false,
      }),
    ).toEqual({ type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } });
    expect(schemaToDraft07({ dependentRequired: { a: ['b'] }, 'x-seed': 's' })).toEqual({
      dependencies: { a: ['b'] },
    });
    expect(schemaToDraft07({ type: 'string', format: 'password' })).toEqual({ type: 'string' });
    expect(schemaToDraft07({ enum: [{ $ref: 'not a reference' }] })).toEqual({
      enum: [{ $ref: 'not a reference' }],
    });
  });
});

describe.each(DREDD_APIS)('the %s contract exported for Dredd', (api) => {
  const spec = contract(api);
  const doc = dreddExport(spec, api);
  const exported = operations(doc);

  it('is OpenAPI 3.0.3 with nothing of 3.1 left: no type arrays, const, examples lists, webhooks or $ref siblings', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.webhooks).toBeUndefined();
    const found: string[] = [];
    for (const [node, path] of objects(doc)) {
      const at = path.join('/');
      if (Array.isArray(node.type)) found.push(`type array at ${at}`);
      if (node.type === 'null') found.push(`type null at ${at}`);
      for (const k of ['const', 'examples', 'prefixItems', 'if', 'unevaluatedProperties', '$defs'])
        if (k in node) found.push(`${k} at ${at}`);
      if (node.$ref && Object.keys(node).length > 1) found.push(`$ref with siblings at ${at}`);
      if (node.nullable && !node.type) found.push(`nullable without type at ${at}`);
      for (const k of Object.keys(node))
        if (k.startsWith('x-') && !k.startsWith('x-dredd-')) found.push(`${k} at ${at}`);
    }
    expect(found).toEqual([]);
  });

  it('keeps every operation, with its first 2xx answer only, JSON as the mock sends it, and that answer’s schema for the hooks', () => {
    expect(exported.map((o) => o.operation.operationId).sort()).toEqual(
      operations(spec)
        .map((o) => o.operation.operationId)
        .sort(),
    );
    for (const { operation } of exported) {
      const original = operations(spec).find((o) => o.operation.operationId === operation.operationId);
      const first2xx = Object.keys(original?.operation.responses ?? {})
        .filter((s) => /^2/.test(s))
        .sort()[0];
      expect(Object.keys(operation.responses), operation.operationId).toEqual([first2xx]);
      for (const [type, media] of Object.entries(
        (operation.responses[first2xx as string].content ?? {}) as Node,
      )) {
        expect(type, operation.operationId).not.toBe('application/json');
        if (type === MOCK_JSON_CONTENT_TYPE) expect(media[BODY_SCHEMA], operation.operationId).toBeDefined();
      }
    }
  });

  it('gives every required path and query parameter one example, so Dredd can make each request', () => {
    for (const { operation, parameters } of exported)
      for (const p of parameters.map((p) => resolveRef(doc, p) ?? {}))
        if (p.required) expect(p.example, `${operation.operationId} ${p.name}`).toBeDefined();
  });

  it('orders each operation after the ones whose answers it takes values from, none of them skipped', () => {
    // The order Dredd runs: the export's, with what it marks x-dredd-last moved to the end by the hooks.
    const order = [...exported]
      .sort((a, b) => (a.operation['x-dredd-last'] ?? 0) - (b.operation['x-dredd-last'] ?? 0))
      .map((o) => o.operation.operationId as string);
    for (const { operation } of exported) {
      const from = operation['x-dredd-from-answer'] ?? {};
      for (const source of [...Object.values(from.path ?? {}), ...Object.values(from.body ?? {})] as Node[]) {
        expect(
          order.indexOf(source.operationId),
          `${operation.operationId} after ${source.operationId}`,
        ).toBeLessThan(order.indexOf(operation.operationId));
        expect(
          exported.find((o) => o.operation.operationId === source.operationId)?.operation['x-dredd-skipped'],
        ).toBe(undefined);
      }
    }
  });

  it('has answer schemas that accept every example of the contract’s 2xx answers, and refuse a body without a required property', () => {
    let checked = 0;
    for (const { operation } of operations(spec)) {
      const status = Object.keys(operation.responses)
        .filter((s) => /^2/.test(s))
        .sort()[0] as string;
      const media = resolveRef(spec, operation.responses[status])?.content?.['application/json'];
      if (!media?.schema) continue;
      const exportedMedia = exported.find((o) => o.operation.operationId === operation.operationId)?.operation
        .responses[status].content[MOCK_JSON_CONTENT_TYPE];
      const validate = bodyValidator(doc, exportedMedia[BODY_SCHEMA]);
      const examples = [
        ...(media.example !== undefined ? [media.example] : []),
        ...Object.values((media.examples ?? {}) as Node).map((e) => resolveRef(spec, e)?.value),
      ];
      for (const example of examples) {
        expect(validate(example), `${operation.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
        checked++;
        const required = resolveRef(spec, media.schema)?.required?.[0];
        if (required && example && typeof example === 'object' && !Array.isArray(example)) {
          const { [required]: _left, ...without } = example as Node;
          expect(validate(without), `${operation.operationId} without ${required}`).toBe(false);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('sends the operations the plan names without their optional query parameters, and says why', () => {
    for (const [id, why] of Object.entries(DREDD_PLANS[api].withoutOptionalQuery)) {
      const found = exported.find((o) => o.operation.operationId === id);
      const query = found?.parameters.map((p) => resolveRef(doc, p) ?? {}).filter((p) => p.in === 'query');
      expect(
        query?.filter((p) => !p.required),
        id,
      ).toEqual([]);
      expect(found?.operation['x-dredd-demo'], id).toBe(why);
    }
  });

  it('names in its plan only what the contract has', () => {
    expect(() =>
      dreddExport(spec, api, { ...DREDD_PLANS[api], skipped: { noSuchOperation: 'because' } }),
    ).toThrow(/noSuchOperation/);
  });
});

describe('the exports are valid OpenAPI 3.0.3 (Redocly, its examples rules included)', () => {
  it('reports no problem', async () => {
    const config = join(dir, 'redocly.yaml');
    writeFileSync(
      config,
      [
        'extends: [minimal]',
        'rules:',
        // The contracts' own paths (seed-fixed /users/banned/{userId} beside /users/{userId}/certificates).
        '  no-ambiguous-paths: off',
        '  no-unresolved-refs: error',
        '  no-unused-components: error',
        '  nullable-type-sibling: error',
        ...[
          'no-invalid-media-type-examples',
          'no-invalid-parameter-examples',
          'no-invalid-schema-examples',
        ].map((rule) => `  ${rule}: {severity: error, allowAdditionalProperties: false}`),
      ].join('\n'),
    );
    // One file a run: with several, `--format=json` writes one report after another.
    const reports = await Promise.all(
      DREDD_APIS.map(async (api) => {
        const file = join(dir, `${api}.json`);
        writeFileSync(file, JSON.stringify(dreddExport(contract(api), api)));
        const { stdout, stderr } = await redocly(['lint', file, '--config', config, '--format=json']);
        try {
          return { api, problems: JSON.parse(stdout).problems as unknown[] };
        } catch {
          throw new Error(`redocly lint gave no report for ${api}: ${stderr}`);
        }
      }),
    );
    const problems = reports.filter((r) => r.problems.length);
    expect(problems).toEqual([]);
  });
});

describe('lmskit export', () => {
  const run = promisify(execFile);
  const lmskit = join(ROOT, 'bin', 'lmskit.js');

  it('--for dredd --api v2 writes the export as JSON to standard output', async () => {
    const { stdout } = await run(process.execPath, [lmskit, 'export', '--for', 'dredd', '--api', 'v2'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(JSON.parse(stdout)).toEqual(dreddExport(contract('v2'), 'v2'));
  });

  it('refuses another target or API with its usage and exit code 2', async () => {
    for (const args of [['--for', 'schemathesis'], ['--for', 'dredd', '--api', 'v3'], []]) {
      const error = await run(process.execPath, [lmskit, 'export', ...args]).catch((e) => e);
      expect(error.code, args.join(' ')).toBe(2);
      expect(error.stderr).toContain('usage: lmskit export --for dredd');
    }
  });
});

/** tools/dredd/hooks.js loaded as Dredd loads it, with a stand-in for Dredd's `hooks` object. */
function loadHooks(env: Record<string, string> = {}) {
  const file = join(ROOT, 'tools', 'dredd', 'hooks.js');
  const registered: Record<string, (t: Node, done: () => void) => void> = {};
  const logs: string[] = [];
  const hooks = {
    beforeAll: (fn: (t: Node, done: () => void) => void) => (registered.beforeAll = fn),
    beforeEach: (fn: (t: Node, done: () => void) => void) => (registered.beforeEach = fn),
    afterEach: (fn: (t: Node, done: () => void) => void) => (registered.afterEach = fn),
    log: (message: string) => logs.push(message),
  };
  const real = createRequire(file);
  new Function('require', 'module', 'exports', readFileSync(file, 'utf8'))(
    (name: string) => (name === 'hooks' ? hooks : real(name)),
    { exports: {} },
    {},
  );
  // The hooks read the keys' variables when they run; these are set for the call only.
  const names = ['LMSKIT_API_KEY', 'LMSKIT_MCP_KEY', 'LMSKIT_ADMIN_TOKEN'];
  const call = (name: 'beforeAll' | 'beforeEach' | 'afterEach', t: Node) => {
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    for (const n of names) delete process.env[n];
    Object.assign(process.env, env);
    try {
      return new Promise<void>((resolve) => registered[name]?.(t, resolve));
    } finally {
      for (const n of names)
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
    }
  };
  return {
    beforeAll: (all: Node[]) => call('beforeAll', all),
    before: (t: Node) => call('beforeEach', t),
    after: (t: Node) => call('afterEach', t),
    logs,
  };
}

/** A transaction as Dredd makes it from an export, for one operation. */
function transaction(file: string, doc: Node, operationId: string, prefix: string): Node {
  const found = operations(doc).find((o) => o.operation.operationId === operationId);
  if (!found) throw new Error(operationId);
  const status = Object.keys(found.operation.responses)[0] as string;
  const type = Object.keys(found.operation.responses[status].content ?? {})[0];
  const uri = found.path.replace(/\{(\w+)\}/g, (_, name) => {
    const p = found.parameters.map((p) => resolveRef(doc, p) ?? {}).find((p) => p.name === name);
    return String(p?.example);
  });
  const media = resolveRef(doc, found.operation.requestBody)?.content?.['application/json'];
  return {
    name: `${found.path} > ${found.operation.summary} > ${status}`,
    id: `${found.method.toUpperCase()} (${status}) ${uri}`,
    origin: { filename: file, resourceName: found.path },
    fullPath: `${prefix}${uri}`,
    request: {
      method: found.method.toUpperCase(),
      uri,
      headers: media ? { 'Content-Type': 'application/json' } : {},
      body: media?.example ? JSON.stringify(media.example) : '',
    },
    expected: { statusCode: status, headers: type ? { 'Content-Type': type } : {} },
  };
}

describe('tools/dredd/hooks.js', () => {
  const write = (api: DreddApi, doc: Node) => {
    const file = join(dir, `hooks-${api}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it('sends the demo keys the kit’s seed makes, or the ones the environment names, in the header each security scheme names', async () => {
    const v1 = dreddExport(contract('v1'), 'v1');
    const v2 = dreddExport(contract('v2'), 'v2');
    const [f1, f2] = [write('v1', v1), write('v2', v2)];
    const demo = loadHooks();
    const t1 = transaction(f1, v1, 'listCourses', '/openapi/v1');
    const t2 = transaction(f2, v2, 'getCapabilities', '/api/v2');
    await demo.before(t1);
    await demo.before(t2);
    expect(t1.request.headers['X-API-KEY']).toBe(DEMO_SITE_API_KEY);
    expect(t2.request.headers['X-MCP-Key']).toBe(demoMcpKey('write'));
    const own = loadHooks({ LMSKIT_API_KEY: 'site-key', LMSKIT_MCP_KEY: 'lmcp_own' });
    const [o1, o2] = [transaction(f1, v1, 'listCourses', ''), transaction(f2, v2, 'getCapabilities', '')];
    await own.before(o1);
    await own.before(o2);
    expect([o1.request.headers['X-API-KEY'], o2.request.headers['X-MCP-Key']]).toEqual([
      'site-key',
      'lmcp_own',
    ]);
    expect(o1.fail).toBeUndefined();
  });

  it('fails an admin transaction without LMSKIT_ADMIN_TOKEN, and sends the bearer token with it', async () => {
    const admin = dreddExport(contract('admin'), 'admin');
    const file = write('admin', admin);
    const without = transaction(file, admin, 'getClock', '/__admin');
    await loadHooks().before(without);
    expect(without.fail).toMatch(/LMSKIT_ADMIN_TOKEN/);
    const withToken = transaction(file, admin, 'getClock', '/__admin');
    await loadHooks({ LMSKIT_ADMIN_TOKEN: 'secret' }).before(withToken);
    expect(withToken.request.headers.Authorization).toBe('Bearer secret');
    const health = transaction(file, admin, 'getHealth', '/__admin');
    await loadHooks().before(health);
    expect([health.fail, health.request.headers.Authorization]).toEqual([undefined, undefined]);
  });

  it('runs what the export marks x-dredd-last after all others, in the order of the mark', async () => {
    const admin = dreddExport(contract('admin'), 'admin');
    const file = write('admin', admin);
    const ids = ['loadFixtures', 'getClock', 'clearRequestJournal', 'getRequestJournal', 'getJournalEntry'];
    const all = ids.map((id) => ({ ...transaction(file, admin, id, '/__admin'), operationId: id }));
    await loadHooks().beforeAll(all);
    expect(all.map((t) => t.operationId)).toEqual([
      'getClock',
      'getRequestJournal',
      'getJournalEntry',
      'clearRequestJournal',
      'loadFixtures',
    ]);
  });

  it('skips what the export marks x-dredd-skipped and logs the reason', async () => {
    const plan = { ...DREDD_PLANS.v1, skipped: { getStatistics: 'a reason given in the plan' } };
    const doc = dreddExport(contract('v1'), 'v1', plan);
    const hooks = loadHooks();
    const t = transaction(write('v1', doc), doc, 'getStatistics', '/openapi/v1');
    await hooks.before(t);
    expect(t.skip).toBe(true);
    expect(hooks.logs).toEqual(['skip GET /statistics: a reason given in the plan']);
  });

  it('takes a path parameter and body properties from earlier answers, and fails the transaction when the answer is missing', async () => {
    const doc = dreddExport(contract('v2'), 'v2');
    const file = write('v2', doc);
    const hooks = loadHooks();
    const job = transaction(file, doc, 'getGenerationJob', '/api/v2');
    await hooks.before(job);
    expect(job.fail).toMatch(/jobId comes from the answer of generateCourse/);

    const generate = transaction(file, doc, 'generateCourse', '/api/v2');
    generate.real = { body: JSON.stringify({ jobId: 'job_7', status: 'queued' }) };
    await hooks.after(generate);
    const again = transaction(file, doc, 'getGenerationJob', '/api/v2');
    await hooks.before(again);
    expect([again.fail, again.request.uri, again.fullPath]).toEqual([
      undefined,
      '/ai/courses/generate/job_7',
      '/api/v2/ai/courses/generate/job_7',
    ]);

    const upload = transaction(file, doc, 'uploadSourceMaterial', '/api/v2');
    upload.real = { body: JSON.stringify({ sessionId: 'ses_9', fileId: 'file_3' }) };
    await hooks.after(upload);
    const processing = transaction(file, doc, 'processSourceMaterial', '/api/v2');
    await hooks.before(processing);
    expect(JSON.parse(processing.request.body)).toEqual({ sessionId: 'ses_9', fileId: 'file_3' });
  });

  it('sends the upload as a multipart/form-data body of the file’s bytes', async () => {
    const doc = dreddExport(contract('v2'), 'v2');
    const t = transaction(write('v2', doc), doc, 'uploadSourceMaterial', '/api/v2');
    t.request.headers = { 'Content-Type': 'multipart/form-data' };
    await loadHooks().before(t);
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(t.request.headers['Content-Type'])?.[1];
    expect(boundary).toBeDefined();
    expect(t.request.bodyEncoding).toBe('base64');
    const body = Buffer.from(t.request.body, 'base64');
    const form = await new Response(body, {
      headers: { 'content-type': t.request.headers['Content-Type'] },
    }).formData();
    const file = form.get('file') as File;
    expect(file.name).toBe('policy.png');
    const upload = DREDD_PLANS.v2.multipart.uploadSourceMaterial;
    expect(Buffer.from(await file.arrayBuffer()).toString('base64')).toBe(upload?.base64);
  });

  it('hands Dredd the answer’s schema, which refuses what the contract refuses', async () => {
    const doc = dreddExport(contract('v2'), 'v2');
    const t = transaction(write('v2', doc), doc, 'getUser', '/api/v2');
    await loadHooks().before(t);
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(t.expected.bodySchema);
    const user = resolveRef(contract('v2'), { $ref: '#/components/examples/UserDetail' })?.value;
    expect(validate(user)).toBe(true);
    expect(validate({ ...user, groups: 'sales' })).toBe(false);
  });
});

describe('the cross-check’s reading of Dredd’s summary', () => {
  it('counts the last summary line and the skips the hooks logged', () => {
    const output =
      'hook: skip POST /a: why\n\u001b[32mcomplete\u001b[39m: 25 passing, 0 failing, 0 errors, 2 skipped, 27 total\n';
    expect(dreddCount('v2', output)).toEqual({
      api: 'v2',
      passing: 25,
      failing: 0,
      errors: 0,
      skipped: 2,
      total: 27,
      skips: ['skip POST /a: why'],
    });
    expect(dreddCount('v1', 'error: could not parse')).toBeNull();
  });
});
