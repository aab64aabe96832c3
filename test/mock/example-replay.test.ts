// Every request example of the three contracts succeeds against a fresh demo mock (openapi/README.md:
// examples are real requests): an integrator who copies one from the docs gets a 2xx, not a 404 for
// an id the demo tenant does not have. Each example is sent to the demo state as the seed makes it,
// with the parameters' own examples in the path and query, and the demo keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, operations, type Spec } from '../helpers.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const PREFIX = { v1: '/openapi/v1', v2: '/api/v2', admin: '/__admin' } as const;
type Api = keyof typeof PREFIX;

interface Example {
  api: Api;
  operationId: string;
  name: string;
  method: string;
  url: string;
  body: unknown;
}

function examples(api: Api): Example[] {
  const spec = loadBundle(api);
  const resolve = (node: Spec): Spec =>
    node?.$ref
      ? resolve(
          (node.$ref as string)
            .slice(2)
            .split('/')
            .reduce((a: Spec, k: string) => a[k], spec),
        )
      : node;
  return operations(spec).flatMap(({ method, path, operation, parameters }) => {
    const params = parameters.map(resolve);
    const exampleOf = (p: Spec) =>
      p.example ??
      (p.examples ? resolve(Object.values(p.examples as Spec)[0]).value : undefined) ??
      p.schema?.example;
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(exampleOf(params.find((p) => p.name === name && p.in === 'path') ?? {}))),
    );
    const query = params
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(exampleOf(p)))}`)
      .join('&');
    const url = `${PREFIX[api]}${filled}${query ? `?${query}` : ''}`;
    const media = resolve(operation.requestBody ?? {})?.content?.['application/json'];
    if (!media) return [];
    const bodies = media.examples
      ? Object.entries(media.examples as Spec).map(([name, e]) => [name, resolve(e).value] as const)
      : media.example !== undefined
        ? [['example', media.example] as const]
        : [];
    return bodies.map(([name, body]) => ({
      api,
      operationId: operation.operationId,
      name,
      method,
      url,
      body,
    }));
  });
}

const all = (['v1', 'v2', 'admin'] as const).flatMap(examples);

/**
 * What the seed says must happen before an example can succeed, done first; the example's own ids
 * of what that step makes are replaced by the ids it made. Seed 000, AI tools: create_course_from_files
 * needs upload_source_material "called earlier in the conversation", and a session id is generated.
 */
const PRECONDITIONS: Record<string, (body: any) => Promise<unknown>> = {
  'generateCourse GenerateFromFiles': async (body) => {
    const form = new FormData();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    form.append('file', new Blob([png]), 'policy.png');
    const upload = await h.v2('/chat/source-materials/upload', { method: 'POST', body: form });
    expect(upload.status).toBe(201);
    return { ...body, sessionId: upload.body.sessionId };
  },
};

describe('every request example succeeds against a fresh demo mock (openapi/README.md: examples)', () => {
  it('finds the examples', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it.each(all.map((e) => [`${e.api} ${e.operationId} ${e.name}`, e] as const))('%s', async (_title, e) => {
    await h.admin('/reset', { method: 'POST', json: { seed: 'demo' } });
    const send = e.api === 'v1' ? h.v1 : e.api === 'v2' ? h.v2 : h.admin;
    const prepare = PRECONDITIONS[`${e.operationId} ${e.name}`];
    const body = prepare ? await prepare(e.body) : e.body;
    const answer = await send(e.url.slice(PREFIX[e.api].length), {
      method: e.method.toUpperCase(),
      json: body,
    });
    expect(
      answer.status,
      `${e.method.toUpperCase()} ${e.url} ${JSON.stringify(e.body)} → ${JSON.stringify(answer.body)}`,
    ).toBeLessThan(300);
  });
});
