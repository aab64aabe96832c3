// In-process HTTP tests of the /api/v2 pipeline, one test per row of seed 000's tables: the MCP key rules (seed 000, MCP key) and authentication (seed 000, Authentication; Errors: 401).
// Shared helpers and the harness: v2-auth-setup.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_KEY, WRITE_KEY } from './harness.ts';
import {
  capabilities,
  expectError,
  h,
  keyOf,
  keyRecord,
  reset,
  sha256,
  sorted,
  useHarness,
  userStatus,
} from './v2-auth-setup.ts';

useHarness();

describe('MCP keys (seed 000, MCP key)', () => {
  beforeAll(reset);
  afterAll(reset);

  it('is 48 characters: the 5-character type prefix lmcp_ and a 43-character base64url body, and authenticates as its owner (seed 000, MCP key: Format, Owner)', async () => {
    const { key } = await h.newKey(2, ['read']);
    expect(key).toHaveLength(48);
    expect(key.slice(0, 5)).toBe('lmcp_');
    expect(key.slice(5)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // 43 base64url characters carry 256 bits.
    expect(Buffer.from(key.slice(5), 'base64url')).toHaveLength(32);
    expect((await capabilities(key)).user).toEqual({ id: 2, name: 'Max Manager', email: 'max@demo.example' });
  });

  it('stores only the SHA-256 of each key: no plaintext of the demo keys or of new keys is in the platform state, each hash is (seed 000, MCP key: Storage)', async () => {
    const fresh = [(await h.newKey(1, ['read'])).key, (await h.newKey(6, ['read', 'write'])).key];
    for (const key of [...fresh, READ_KEY, WRITE_KEY])
      expect((await h.v2('/mcp/capabilities', { key })).status).toBe(200);
    const state = JSON.stringify(h.platform.snapshot());
    for (const key of [READ_KEY, WRITE_KEY, ...fresh]) {
      expect(state).not.toContain(key);
      expect(state).not.toContain(key.slice(5));
      expect(state).toContain(sha256(key));
    }
  });

  it('verifies the key by hash comparison: a key of the right shape that differs in its last character gets 401 (seed 000, Authentication 1)', async () => {
    const { key } = await h.newKey(1, ['read']);
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    expectError(await h.v2('/mcp/capabilities', { key: `${key.slice(0, -1)}${last}` }), 401, 'UNAUTHORIZED');
    expectError(await h.v2('/mcp/capabilities', { key: key.slice(0, -1) }), 401, 'UNAUTHORIZED');
    expectError(await h.v2('/mcp/capabilities', { key: sha256(key) }), 401, 'UNAUTHORIZED');
    expect((await h.v2('/mcp/capabilities', { key })).status).toBe(200);
  });

  it('updates lastUsedAt on every successful authentication, for that key only; a refused request leaves it (seed 000, MCP key: last_used_at)', async () => {
    const used = await h.newKey(3, ['read']);
    const other = await h.newKey(3, ['read']);
    expect((await keyRecord(used.id)).lastUsedAt).toBeNull();
    const start = h.platform.now();
    await h.v2('/users/6', { key: used.key });
    expect((await keyRecord(used.id)).lastUsedAt).toBe(start);
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 90 } });
    // A request that authenticates but is then refused (a write with a read key) still authenticated.
    expect(
      (await h.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key: used.key })).status,
    ).toBe(403);
    expect((await keyRecord(used.id)).lastUsedAt).toBe(start + 90);
    expect((await keyRecord(other.id)).lastUsedAt).toBeNull();
    await h.admin(`/tenants/demo/mcp-keys/${used.id}`, { method: 'DELETE' });
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 90 } });
    expect((await h.v2('/users/6', { key: used.key })).status).toBe(401);
    expect((await keyRecord(used.id)).lastUsedAt).toBe(start + 90);
  });

  it('never expires automatically: a key still works after 400 days of virtual time (seed 000, MCP key: Expiry)', async () => {
    const { key } = await h.newKey(2, ['read']);
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 400 * 86_400 } });
    expect((await h.v2('/users/6', { key })).status).toBe(200);
  });

  it('lets one user hold any number of keys, each authenticating and revocable on its own (seed 000, MCP key: Count)', async () => {
    const keys = [];
    for (let i = 0; i < 12; i++) keys.push(await h.newKey(3, i % 2 ? ['read'] : ['read', 'write']));
    expect(new Set(keys.map((k) => k.key)).size).toBe(12);
    for (const { key } of keys) expect((await capabilities(key)).user.id).toBe(3);
    const [first, ...rest] = keys;
    await h.admin(`/tenants/demo/mcp-keys/${first?.id}`, { method: 'DELETE' });
    expect((await h.v2('/mcp/capabilities', { key: first?.key })).status).toBe(401);
    for (const { key } of rest) expect((await h.v2('/mcp/capabilities', { key })).status).toBe(200);
  });

  it('makes a revocation effective on the very next request, which gets 401 UNAUTHORIZED (seed 000, MCP key: active → revoked)', async () => {
    const { id, key } = await h.newKey(2, ['read', 'write']);
    expect((await h.v2('/users/6', { key })).status).toBe(200);
    expect((await h.admin(`/tenants/demo/mcp-keys/${id}`, { method: 'DELETE' })).status).toBe(200);
    expectError(await h.v2('/users/6', { key }), 401, 'UNAUTHORIZED');
    expectError(
      await h.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key }),
      401,
      'UNAUTHORIZED',
    );
    expect(userStatus(13)).toBe(false);
  });

  it('scope read allows every read tool and refuses every write tool 403, changing nothing (seed 000, MCP key: Scopes)', async () => {
    const { key } = await h.newKey(1, ['read']);
    expect((await h.v2('/users?query=lars', { key })).status).toBe(200);
    expect((await h.v2('/audit', { key })).status).toBe(200);
    expectError(
      await h.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key }),
      403,
      'WRITE_SCOPE_REQUIRED',
    );
    expectError(
      await h.v2('/courses/5/assignments/users', { method: 'POST', json: { userId: 13 }, key }),
      403,
      'WRITE_SCOPE_REQUIRED',
    );
    expect(userStatus(13)).toBe(false);
    expect(
      h.platform
        .tenant('demo')
        .assignmentsOfUser(13)
        .map((a) => a.courseId),
    ).not.toContain(5);
  });
});

describe('authentication (seed 000, Authentication; Errors: 401 UNAUTHORIZED)', () => {
  beforeAll(reset);
  afterAll(reset);

  it.each([
    ['no X-MCP-Key header', null],
    ['an empty X-MCP-Key header', ''],
    ['an unknown key of the right shape', `lmcp_${'A'.repeat(43)}`],
    ['a string that is no key at all', 'hello'],
  ])(
    'answers 401 UNAUTHORIZED {error, code} to %s (seed 000, Authentication 5; Errors 401)',
    async (_what, key) => {
      expectError(await h.v2('/mcp/capabilities', { key }), 401, 'UNAUTHORIZED');
      expectError(await h.v2('/users?query=a', { key }), 401, 'UNAUTHORIZED');
    },
  );

  it('reads the key from X-MCP-Key only: the same key as a bearer token gets 401 (seed 000, Authentication 1)', async () => {
    const reply = await h.v2('/mcp/capabilities', {
      key: null,
      headers: { authorization: `Bearer ${WRITE_KEY}` },
    });
    expectError(reply, 401, 'UNAUTHORIZED');
  });

  it('answers 401 to a revoked key (seed 000, Authentication 5; Errors 401 revoked key)', async () => {
    const { id, key } = await h.newKey(1, ['read']);
    await h.admin(`/tenants/demo/mcp-keys/${id}`, { method: 'DELETE' });
    expectError(await h.v2('/mcp/capabilities', { key }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 to the keys of a banned owner until the owner is unbanned (seed 000, Authentication 5; Errors 401 banned user)', async () => {
    const max = await keyOf(2);
    expect((await h.v2('/users/banned', { method: 'POST', json: { userId: 2 } })).status).toBe(200);
    expectError(await h.v2('/mcp/capabilities', { key: max }), 401, 'UNAUTHORIZED');
    expectError(await h.v2('/users/6', { key: max }), 401, 'UNAUTHORIZED');
    expect((await h.v2('/users/banned/2', { method: 'DELETE' })).status).toBe(200);
    expect((await h.v2('/users/6', { key: max })).status).toBe(200);
  });

  it("acts as the key's owner with the owner's permissions: a learner's write key reads its own assignments but may not search users (seed 000, Authentication 2)", async () => {
    const lena = await keyOf(6);
    expect((await capabilities(lena)).user).toEqual({
      id: 6,
      name: 'Lena Learner',
      email: 'lena@demo.example',
    });
    const mine = await h.v2('/courses/assigned/me', { key: lena });
    expect(mine.status).toBe(200);
    expect(new Set(mine.body.assignments.map((a: any) => a.userId))).toEqual(new Set([6]));
    expect(sorted(mine.body.assignments.map((a: any) => String(a.courseId)))).toEqual(['1', '3', '7']);
    expectError(await h.v2('/users?query=lena', { key: lena }), 403, 'PERMISSION_DENIED');
  });
});
