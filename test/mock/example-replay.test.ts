// Every example of the three contracts is a request that succeeds against the demo (openapi/README.md:
// examples are real requests): each request body example, each parameter example, and the request
// the docs site's "Try it" form is pre-filled with (lib/docs-site/samples.ts, the same request its code
// samples show). An integrator who copies one, or presses Send, gets a documented 2xx, not a 404 for
// an id the demo tenant lacks, and an assignment made by one is not overdue the moment it is made.
// Each example runs on a mock of its own, fresh from the demo seed, so that none depends on another's
// order; an example naming a record only an earlier call makes (a job, an upload, a fault) runs after
// that call, and names the id a fresh demo gives it.
import { describe, expect, it } from 'vitest';
import { type ExampleRequest, exampleRequest } from '../../lib/docs-site/samples.ts';
import type { ApiName } from '../../lib/paths.ts';
import { type Node, resolveRef } from '../../lib/spec-walk.ts';
import { START } from '../../mock/seed/demo.ts';
import { loadBundle, operations } from '../helpers.ts';
import { ADMIN_TOKEN, type Harness, startHarness } from './harness.ts';

/** A PNG's signature and the start of its first chunk: typed PNG by its content, the smallest upload. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

interface Case {
  api: ApiName;
  operationId: string;
  /** What is sent: `Try it`, or the name of the example sent in place of the Try it default. */
  name: string;
  request: ExampleRequest;
  /** The statuses the example may be answered with. */
  expected: number[];
}

/** The operation's documented statuses that carry a response example of this name (Prism pairs them so). */
function statusesOf(spec: Node, operation: Node, exampleName?: string): number[] {
  const documented = Object.entries((operation.responses ?? {}) as Record<string, Node>);
  const paired = documented.filter(([, r]) =>
    Object.values((resolveRef(spec, r)?.content ?? {}) as Record<string, Node>).some(
      (media) => exampleName !== undefined && media.examples?.[exampleName] !== undefined,
    ),
  );
  const chosen = paired.length ? paired : documented.filter(([status]) => /^2\d\d$/.test(status));
  return chosen.map(([status]) => Number(status));
}

/** The Try it request, and one more for every further example of the operation's body and parameters. */
function casesOf(api: ApiName): Case[] {
  const spec = loadBundle(api);
  return operations(spec).flatMap(({ method, path, operation, parameters }) => {
    const tryIt = exampleRequest(api, spec, path, method);
    const id = operation.operationId as string;
    const cases: Case[] = [
      { api, operationId: id, name: 'Try it', request: tryIt, expected: statusesOf(spec, operation) },
    ];
    const media = resolveRef(spec, operation.requestBody)?.content?.['application/json'];
    for (const [name, example] of Object.entries((media?.examples ?? {}) as Record<string, Node>).slice(1)) {
      const body = { ...tryIt.body, json: JSON.stringify(resolveRef(spec, example)?.value, null, 2) };
      cases.push({
        api,
        operationId: id,
        name,
        request: { ...tryIt, body: body as ExampleRequest['body'] },
        expected: statusesOf(spec, operation, name),
      });
    }
    for (const parameter of parameters.map((p) => resolveRef(spec, p) as Node)) {
      for (const [name, example] of Object.entries((parameter.examples ?? {}) as Record<string, Node>).slice(
        1,
      )) {
        const value = String(resolveRef(spec, example)?.value);
        cases.push({
          api,
          operationId: id,
          name,
          request: {
            ...tryIt,
            params: tryIt.params.map((p) =>
              p.name === parameter.name && p.in === parameter.in ? { ...p, value } : p,
            ),
          },
          expected: statusesOf(spec, operation, name),
        });
      }
    }
    return cases;
  });
}

/** The request as the Try it form sends it (lib/docs-site/assets/try-it.js), with the mock's keys. */
async function send(h: Harness, api: ApiName, request: ExampleRequest) {
  let path = request.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of request.params) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(p.value));
    else if (p.value === '') continue;
    else if (p.in === 'query') query.append(p.name, p.value);
    else headers[p.name] = p.value;
  }
  // The admin token is random per start: the form asks for it, the harness knows it.
  if (request.auth)
    headers[request.auth.header] = request.auth.prefix + (api === 'admin' ? ADMIN_TOKEN : request.auth.value);
  let body: string | FormData | undefined;
  if (request.body?.json !== undefined) {
    headers['content-type'] = request.body.contentType;
    body = request.body.json;
  } else if (request.body?.parts) {
    body = new FormData();
    for (const part of request.body.parts) {
      if (part.file) body.append(part.name, new Blob([PNG], { type: 'image/png' }), 'policy.png');
      else if (part.value) body.append(part.name, part.value);
    }
  }
  const search = query.toString();
  const url = `${h.base}${new URL(request.server).pathname}${path}${search ? `?${search}` : ''}`;
  const response = await fetch(url, { method: request.method, headers, body });
  const text = await response.text();
  return { status: response.status, text };
}

/**
 * What must happen on a fresh demo before an example whose record only an earlier call makes can
 * succeed, by operationId (or operationId and example name); the example names the id the demo gives
 * that record (the first job is `job_1`). Seed 000, AI tools: a session comes from
 * upload_source_material, a job from create_course_from_*.
 */
const BEFORE: Record<string, ((h: Harness) => Promise<{ status: number; body: any }>)[]> = {
  processSourceMaterial: [upload],
  'generateCourse GenerateFromFiles': [upload],
  getGenerationJob: [
    (h) => h.v2('/ai/courses/generate', { method: 'POST', json: { prompt: 'Fire safety for new hires' } }),
  ],
  deleteWebhookReceiver: [receiver],
  // A receiver of course events, then a course published: its delivery is the first.
  getWebhookDelivery: [receiver, publishDraft],
  redeliverWebhookDelivery: [receiver, publishDraft],
  getJournalEntry: [(h) => h.v1('/courses')],
  deleteFault: [
    (h) =>
      h.admin('/faults', {
        method: 'POST',
        json: { method: 'GET', path: '/openapi/v1/courses', status: 503 },
      }),
  ],
};

function upload(h: Harness) {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'policy.png');
  return h.v2('/chat/source-materials/upload', { method: 'POST', body: form });
}
function receiver(h: Harness) {
  return h.admin('/tenants/demo/webhooks', {
    method: 'POST',
    json: { url: 'http://127.0.0.1:9/hooks', secret: 'a-signing-secret', events: ['course.published'] },
  });
}
/** Course 46, one of the demo's three drafts (mock/seed/demo.ts). */
function publishDraft(h: Harness) {
  return h.admin('/tenants/demo/courses/46/publish', { method: 'POST' });
}

/** Properties of a request body that name a moment an assignment begins or is due. */
const MOMENTS = new Set(['deadlineAt', 'startAt', 'assignAt']);
function momentsIn(value: unknown, at = ''): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => momentsIn(v, `${at}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    MOMENTS.has(k) && v !== null ? [[`${at}/${k}`, v] as [string, unknown]] : momentsIn(v, `${at}/${k}`),
  );
}

const all = (['v1', 'v2', 'admin'] as const).flatMap(casesOf);

/** The request with a 2 added to each string its body marks unique (before an e-mail's @). */
function withUniqueChanged(request: ExampleRequest): ExampleRequest {
  if (!request.body?.json || !request.body.unique) return request;
  const value = JSON.parse(request.body.json);
  for (const pointer of request.body.unique) {
    const keys = pointer.split('/').slice(1);
    const last = keys.pop() as string;
    const holder = keys.reduce((node, key) => node[key], value);
    holder[last] = String(holder[last]).replace(/(@|$)/, '2$1');
  }
  return { ...request, body: { ...request.body, json: JSON.stringify(value) } };
}

describe('every example and every Try it default succeeds against a fresh demo mock, a Try it default twice in a row (openapi/README.md: examples)', () => {
  it('finds an example request for every operation, and the further examples', () => {
    const operationCount = (['v1', 'v2', 'admin'] as const).reduce(
      (n, api) => n + operations(loadBundle(api)).length,
      0,
    );
    expect(all.filter((c) => c.name === 'Try it')).toHaveLength(operationCount);
    expect(all.length).toBeGreaterThan(operationCount);
  });

  it.each(all.map((c) => [`${c.api} ${c.operationId} ${c.name}`, c] as const))(
    '%s',
    async (_title, c) => {
      const h = await startHarness();
      try {
        const before = BEFORE[`${c.operationId} ${c.name}`] ?? BEFORE[c.operationId];
        for (const step of before ?? []) {
          const done = await step(h);
          expect(done.status, `a step before the example: ${JSON.stringify(done.body)}`).toBeLessThan(300);
        }
        const answer = await send(h, c.api, c.request);
        const sent = `${c.request.method} ${c.request.path} ${c.request.body?.json ?? ''}`;
        expect(c.expected, `${sent}: answered ${answer.status} ${answer.text}`).toContain(answer.status);
        if (c.name !== 'Try it') return;
        // Sent again as the form sends it then: seed 001 refuses a user's id or e-mail, an attribute's
        // apiId a second time (so does the admin API a tenant's id and key), and the form changes them.
        const again = await send(h, c.api, withUniqueChanged(c.request));
        // A DELETE of a record an earlier call made (a receiver, a fault) finds it gone: the 404 it documents.
        const expected = c.request.method === 'DELETE' ? [...c.expected, 404] : c.expected;
        expect(expected, `sent again: answered ${again.status} ${again.text}`).toContain(again.status);
      } finally {
        await h.close();
      }
    },
    15_000,
  );

  it('a deadline or start in an example lies after the demo clock’s start, so that an assignment made by it is not overdue at once', () => {
    const past = all.flatMap((c) =>
      c.request.body?.json === undefined
        ? []
        : momentsIn(JSON.parse(c.request.body.json))
            .filter(([, v]) => typeof v === 'number' && v <= START)
            .map(([at, v]) => `${c.api} ${c.operationId} ${c.name} ${at}: ${v}`),
    );
    expect(past).toEqual([]);
  });
});
