// A refusal reads as one sentence of what the value must be (docs/mock.md, Bad input): every `anyOf`
// and `oneOf` of what clients send, and the e-mail address, carry an `x-refusal` the mock says instead
// of ajv's words for each branch (lib/readable-errors.ts). Checked against the mock's own answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_NAMES } from '../../lib/paths.ts';
import { requestsOf } from '../../scripts/spectral-checks.ts';
import { loadBundle } from '../helpers.ts';
import { type Harness, startHarness } from '../mock/harness.ts';

/** Where a schema inside `node` offers a choice of forms without saying, in `x-refusal`, what they are. */
function unworded(node: unknown, at: string, out: string[] = []): string[] {
  if (!node || typeof node !== 'object') return out;
  const s = node as Record<string, unknown>;
  for (const k of ['anyOf', 'oneOf'])
    if (s[k] !== undefined && typeof s['x-refusal'] !== 'string') out.push(`${at}.${k}`);
  for (const [key, value] of Object.entries(s))
    if (key !== 'example' && key !== 'examples') unworded(value, `${at}.${key}`, out);
  return out;
}

describe('every choice of forms in a request says what it needs', () => {
  it.each(API_NAMES)('%s: each anyOf and oneOf of a request has an x-refusal', (api) => {
    expect(unworded(requestsOf(loadBundle(api)).paths, 'paths')).toEqual([]);
  });
});

describe('refusals in one sentence', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('v1: a bad e-mail address is one message saying what an address looks like, not a pattern and a format', async () => {
    const answer = await h.v1('/users', {
      method: 'POST',
      json: { name: 'Anna', email: 'anna@localhost', password: 'secret123', roleAlias: 'learner' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.email).toEqual([
      'email must be an e-mail address such as anna@example.com: a local part, "@" and a domain with a dot',
    ]);
  });

  it('admin: a fault with neither a method and a path nor a tool says what a fault needs', async () => {
    const answer = await h.admin('/faults', {
      method: 'POST',
      json: { path: '/openapi/v1/courses', status: 503 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid request: body: a fault needs a method and a path, or a tool');
  });

  it('v2: a chain assignment with neither users nor groups says what it needs', async () => {
    const answer = await h.v2('/courseChains/1/assign', { method: 'POST', json: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/body: needs users, groups or both, each a list of at least one id$/);
    expect(answer.body.error).not.toMatch(/anyOf|must have required property/);
  });
});
