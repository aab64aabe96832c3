// Every string and integer a client sends is bounded in the three contracts (docs/mock.md, Bad input):
// the rule of Spectral's OWASP ruleset that `npm run cross-check` runs (scripts/spectral-checks.ts), held
// here too so `npm test` names a new unbounded field at once. And the mock enforces the bounds: a
// 200 000-character name or a 500 000-character password, once accepted up to the 1 MB body cap, is a 400.
import { describe, expect, it } from 'vitest';
import { API_NAMES } from '../../lib/paths.ts';
import { requestsOf } from '../../scripts/spectral-checks.ts';
import { loadBundle } from '../helpers.ts';
import { type Harness, startHarness } from '../mock/harness.ts';

type Json = Record<string, unknown>;

/** Where a schema inside `node` lets a string or an integer through without a bound. */
function unbounded(node: unknown, at: string, out: string[] = []): string[] {
  if (!node || typeof node !== 'object') return out;
  const s = node as Json;
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes('string') && s.maxLength === undefined && !s.enum && s.const === undefined)
    out.push(`${at}: a string without maxLength`);
  if (types.includes('integer') && (s.minimum === undefined || s.maximum === undefined))
    out.push(`${at}: an integer without minimum and maximum`);
  for (const [key, value] of Object.entries(s))
    if (key !== 'example' && key !== 'examples') unbounded(value, `${at}.${key}`, out);
  return out;
}

describe('what a client sends is bounded (OWASP API4:2023, the rules Spectral runs in CI)', () => {
  it.each(API_NAMES)(
    '%s: every request string has a maxLength, every request integer a minimum and a maximum',
    (api) => {
      expect(unbounded(requestsOf(loadBundle(api)).paths, 'paths')).toEqual([]);
    },
  );
});

describe('the mock enforces the bounds the contracts state', () => {
  let h: Harness;
  const user = { name: 'Anna', email: 'bounds@example.com', password: 'secret123', roleAlias: 'learner' };
  it('refuses a 200 000-character name and a 500 000-character password with 400 naming the field, creating nobody', async () => {
    h = await startHarness();
    const users = h.platform.tenant('demo').users.size;
    const name = await h.v1('/users', { method: 'POST', json: { ...user, name: 'n'.repeat(200_000) } });
    expect(name.status).toBe(400);
    expect(Object.keys(name.body.errors ?? {})).toContain('name');
    const password = await h.v1('/users', {
      method: 'POST',
      json: { ...user, password: 'p'.repeat(500_000) },
    });
    expect(password.status).toBe(400);
    expect(Object.keys(password.body.errors ?? {})).toContain('password');
    expect(h.platform.tenant('demo').users.size).toBe(users);
    // At the bound itself, accepted.
    const longest = await h.v1('/users', {
      method: 'POST',
      json: { ...user, name: 'n'.repeat(255), password: 'p'.repeat(128) },
    });
    expect(longest.status).toBe(201);
    await h.close();
  });
});
