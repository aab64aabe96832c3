// In-process HTTP tests of the /api/v2 pipeline: the MCP key rules, one test per row of
// seed 000's "Authentication", "Tenant restrictions (licence)", "Errors" and "Limits" tables, the
// permission rules and the capabilities filter. Every answer is also checked against openapi/v2 by
// the harness: a handler that drifts from the contract fails here with a 500.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { absentToolNames } from '../../lib/tool-schemas.ts';
import { toolNamesIn } from '../helpers.ts';
import { type Harness, READ_KEY, startHarness, WRITE_KEY } from './harness.ts';

type Reply = { status: number; body: any; headers: Headers };

/** Seed 000, "Read tools", "Write tools" and "AI tools": the tools by kind, as mcp-schema/ lists them. */
const READ_TOOLS = toolNamesIn('read');
const WRITE_TOOLS = toolNamesIn('write');
const AI_TOOLS = toolNamesIn('ai-generation', 'ai-refinement');
const ABSENT_TOOLS = absentToolNames();
const LICENSE_DISABLED_TEXT = /MCP is not enabled on this workspace, talk to your administrator/;
/** The refusals that the capabilities filter stands for (scope, licence, owner's permission). */
const CAPABILITY_REFUSALS = [
  'PERMISSION_DENIED',
  'WRITE_SCOPE_REQUIRED',
  'MCP_AI_DISABLED',
  'MCP_LICENSE_DISABLED',
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sorted = (list: string[]) => [...list].sort();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const form = (data: Buffer, name: string) => {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(data)]), name);
  return body;
};

/** A v2 error: the status, the code, and the documented body `{error, code}` and nothing else. */
function expectError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: reply.body?.code }).toEqual({ status, code });
  expect(Object.keys(reply.body).sort()).toEqual(['code', 'error']);
  expect(reply.body.error).toEqual(expect.any(String));
}

/** The delay of a 429: in the message ("retry after Ns") and in Retry-After, the same number. */
function retryDelay(reply: Reply): number {
  const inMessage = /retry after (\d+)s/i.exec(reply.body.error)?.[1];
  expect(inMessage).toBeDefined();
  expect(reply.headers.get('retry-after')).toBe(inMessage);
  const seconds = Number(inMessage);
  expect(seconds).toBeGreaterThanOrEqual(1);
  return seconds;
}

const nextUtcMidnight = (now: number) => (Math.floor(now / 86_400) + 1) * 86_400;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

let h: Harness;
beforeAll(async () => {
  // This file makes many failed authentications on purpose: a high per-IP threshold keeps them from
  // locking out the tests that follow. The thresholds themselves are tested on harnesses of their own.
  h = await startHarness('demo', { requestsPerMinute: 0, failedAuthMax: 10_000 });
});
afterAll(() => h.close());

const reset = async () => {
  expect((await h.admin('/reset', { method: 'POST', json: {} })).status).toBe(200);
};
const licence = (patch: {
  mcpAccess?: 'none' | 'read' | 'full';
  mcpAiAccess?: boolean;
  mcpLicensed?: boolean;
}) => h.admin('/tenants/demo', { method: 'PATCH', json: patch });
const fullLicence = () => licence({ mcpAccess: 'full', mcpAiAccess: true, mcpLicensed: true });
const keyRecord = async (id: string) => (await h.admin(`/tenants/demo/mcp-keys/${id}`)).body;
const keyOf = async (userId: number, scopes: ('read' | 'write')[] = ['read', 'write']) =>
  (await h.newKey(userId, scopes)).key;
const userStatus = (id: number) => h.platform.tenant('demo').users.get(id)?.isBanned;
const capabilities = async (key: string) => {
  const reply = await h.v2('/mcp/capabilities', { key });
  expect(reply.status).toBe(200);
  return reply.body;
};

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

describe('tenant restrictions (seed 000, Tenant restrictions (licence); Authentication 4 and 6; Errors 402/403)', () => {
  beforeAll(reset);
  afterEach(fullLicence);
  afterAll(reset);

  it("answers 403 MCP_LICENSE_DISABLED with the seed's message to every valid key when the tenant's mcpAccess is none (seed 000, Authentication 4: none; Errors)", async () => {
    await licence({ mcpAccess: 'none' });
    for (const key of [READ_KEY, WRITE_KEY]) {
      for (const reply of [
        await h.v2('/mcp/capabilities', { key }),
        await h.v2('/users?query=lena', { key }),
        await h.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key }),
      ]) {
        expectError(reply, 403, 'MCP_LICENSE_DISABLED');
        expect(reply.body.error).toMatch(LICENSE_DISABLED_TEXT);
      }
    }
    expect(userStatus(13)).toBe(false);
  });

  it('reveals MCP_LICENSE_DISABLED only to a valid key: a missing, unknown or revoked key still gets 401 (seed 000, Authentication 6)', async () => {
    const { id, key } = await h.newKey(1, ['read']);
    await h.admin(`/tenants/demo/mcp-keys/${id}`, { method: 'DELETE' });
    await licence({ mcpAccess: 'none' });
    for (const candidate of [null, `lmcp_${'B'.repeat(43)}`, key]) {
      expectError(await h.v2('/mcp/capabilities', { key: candidate }), 401, 'UNAUTHORIZED');
    }
  });

  it('treats every key as read-only when mcpAccess is read, including keys issued with write: reads answer, writes get 403 (seed 000, Authentication 4: read)', async () => {
    await licence({ mcpAccess: 'read' });
    const caps = await capabilities(WRITE_KEY);
    expect(caps).toMatchObject({ tier: 'read', scopes: { read: true, write: false } });
    expect(sorted(caps.tools)).toEqual(sorted(READ_TOOLS));
    expect((await h.v2('/users/13')).status).toBe(200);
    expectError(
      await h.v2('/users/banned', { method: 'POST', json: { userId: 13 } }),
      403,
      'WRITE_SCOPE_REQUIRED',
    );
    expectError(
      await h.v2('/courses/clone', { method: 'POST', json: { courseId: 1 } }),
      403,
      'WRITE_SCOPE_REQUIRED',
    );
    expect(userStatus(13)).toBe(false);
  });

  it('applies the tenant clamp on every request: the same write key stops and starts writing as the tier changes, without re-issue (seed 000, MCP key: "The tenant clamp ... applied on every request")', async () => {
    const ban = () => h.v2('/users/banned', { method: 'POST', json: { userId: 12 } });
    const unban = () => h.v2('/users/banned/12', { method: 'DELETE' });
    expect((await ban()).status).toBe(200);
    await licence({ mcpAccess: 'read' });
    expect((await unban()).status).toBe(403);
    expect(userStatus(12)).toBe(true);
    await licence({ mcpAccess: 'full' });
    expect((await unban()).status).toBe(200);
    expect(userStatus(12)).toBe(false);
  });

  it('offers read and write tools per key scope when mcpAccess is full (seed 000, Authentication 4: full)', async () => {
    expect(await capabilities(READ_KEY)).toMatchObject({
      tier: 'full',
      scopes: { read: true, write: false },
    });
    expect(await capabilities(WRITE_KEY)).toMatchObject({
      tier: 'full',
      scopes: { read: true, write: true },
    });
    expectError(
      await h.v2('/courses/5/assignments/users', { method: 'POST', json: { userId: 13 }, key: READ_KEY }),
      403,
      'WRITE_SCOPE_REQUIRED',
    );
    const written = await h.v2('/courses/5/assignments/users', {
      method: 'POST',
      json: { userId: 13 },
      key: WRITE_KEY,
    });
    expect(written).toMatchObject({ status: 200, body: { assigned: true } });
  });

  it.each([
    [
      'upload_source_material',
      () => ({ method: 'POST', path: '/chat/source-materials/upload', body: form(PNG, 'a.png') }),
    ],
    [
      'upload_source_material (process)',
      () => ({
        method: 'POST',
        path: '/chat/source-materials/process',
        json: { sessionId: 'ses_1', fileId: 'file_1' },
      }),
    ],
    [
      'create_course_from_prompt',
      () => ({ method: 'POST', path: '/ai/courses/generate', json: { prompt: 'Ladder safety' } }),
    ],
    ['get_course_generation_status', () => ({ method: 'GET', path: '/ai/courses/generate/job_1' })],
    [
      'refine_course',
      () => ({ method: 'POST', path: '/ai/courses/1/refine', json: { feedback: 'ladders' } }),
    ],
    ['regenerate_question', () => ({ method: 'POST', path: '/ai/questions/3/regenerate', json: {} })],
    ['regenerate_lesson', () => ({ method: 'POST', path: '/ai/lessons/1/regenerate', json: {} })],
  ] as const)(
    'answers 403 MCP_AI_DISABLED to %s when mcpAiAccess is false (seed 000, Tenant restrictions: mcpAiAccess; Errors)',
    async (_tool, call) => {
      await licence({ mcpAiAccess: false });
      const { path, ...init } = call() as { path: string; method: string; json?: unknown; body?: FormData };
      const jobsBefore = h.platform.tenant('demo').jobs.size;
      expectError(await h.v2(path, init), 403, 'MCP_AI_DISABLED');
      expect(h.platform.tenant('demo').jobs.size).toBe(jobsBefore);
    },
  );

  it('keeps the non-AI tools working while mcpAiAccess is false, and hides only the AI tools (seed 000, Tenant restrictions: mcpAiAccess)', async () => {
    await licence({ mcpAiAccess: false });
    const caps = await capabilities(WRITE_KEY);
    expect(sorted(caps.tools)).toEqual(sorted([...READ_TOOLS, ...WRITE_TOOLS]));
    expect((await h.v2('/courses/clone', { method: 'POST', json: { courseId: 1 } })).status).toBe(201);
  });

  it('answers 402 LICENSE_RESTRICTED to key generation when the tenant has no MCP licence at all (seed 000, Authentication 7; Errors 402)', async () => {
    await licence({ mcpLicensed: false });
    const reply = await h.admin('/tenants/demo/mcp-keys', {
      method: 'POST',
      json: { userId: 1, scopes: ['read'] },
    });
    expectError(reply, 402, 'LICENSE_RESTRICTED');
    await fullLicence();
    expect(
      (await h.admin('/tenants/demo/mcp-keys', { method: 'POST', json: { userId: 1, scopes: ['read'] } }))
        .status,
    ).toBe(201);
  });

  it('answers 402 LICENSE_RESTRICTED to key revocation when the tenant has no MCP licence at all (seed 000, Authentication 7: "generation and revocation ... return 402")', async () => {
    const { id } = await h.newKey(1, ['read']);
    await licence({ mcpLicensed: false });
    expectError(
      await h.admin(`/tenants/demo/mcp-keys/${id}`, { method: 'DELETE' }),
      402,
      'LICENSE_RESTRICTED',
    );
  });

  it('checks in order: licence, then write scope, then the AI switch, then the permission (docs/mock.md, the pipeline)', async () => {
    const lena = await keyOf(6);
    const generate = (key: string) =>
      h.v2('/ai/courses/generate', { method: 'POST', json: { prompt: 'Ladder safety' }, key });
    await licence({ mcpAccess: 'none', mcpAiAccess: false });
    expectError(await generate(READ_KEY), 403, 'MCP_LICENSE_DISABLED');
    await licence({ mcpAccess: 'full' });
    expectError(await generate(READ_KEY), 403, 'WRITE_SCOPE_REQUIRED');
    expectError(await generate(lena), 403, 'MCP_AI_DISABLED');
    await licence({ mcpAiAccess: true });
    expectError(await generate(lena), 403, 'PERMISSION_DENIED');
    expect(h.platform.tenant('demo').jobs.size).toBe(0);
  });
});

describe('permissions (seed 000, Permission identifiers used by tools; Errors: 403 varies per endpoint)', () => {
  beforeAll(reset);
  afterAll(reset);

  it.each([
    ['a learner', 'GET', '/users?query=a', 'user_view', 6, undefined],
    ['a learner', 'GET', '/courses?query=a', 'course_view', 6, undefined],
    ['a learner', 'GET', '/statistics/overview', 'common_stat', 6, undefined],
    ['an author', 'GET', '/audit', 'audit_view', 4, undefined],
    ['an author', 'GET', '/users/6/courses/assignments', 'user_assign', 4, undefined],
    ['an author', 'POST', '/users/banned', 'user_ban', 4, { userId: 13 }],
    ['an author', 'POST', '/courses/5/assignments', 'group_assign', 4, { groups: [4] }],
    ['an author', 'POST', '/users/13/email/change', 'user_edit', 4, { email: 'lars.new@example.test' }],
    ['a manager', 'POST', '/courses/clone', 'course_edit', 2, { courseId: 1 }],
    ['a manager', 'POST', '/ai/courses/1/refine', 'course_edit', 2, { feedback: 'ladders' }],
  ])(
    "refuses %s's key 403 PERMISSION_DENIED on %s %s: the owner's role lacks %s (seed 000, Authentication 2; Errors 403)",
    async (_who, method, path, permission, userId, json) => {
      const key = await keyOf(userId);
      const reply = await h.v2(path, { method, key, ...(json ? { json } : {}) });
      expectError(reply, 403, 'PERMISSION_DENIED');
      expect(reply.body.error).toContain(permission);
      expect(userStatus(13)).toBe(false);
      expect(h.platform.tenant('demo').users.get(13)?.email).toBe('lars@demo.example');
    },
  );

  it('enforces the role hierarchy: a manager may not ban, unban or re-address an admin or another manager — 403 ROLE_HIERARCHY — but may a learner (seed 000, ban_user/unban_user/change_user_email; docs/adr-0002: strictly below)', async () => {
    const max = await keyOf(2);
    expectError(
      await h.v2('/users/banned', { method: 'POST', json: { userId: 1 }, key: max }),
      403,
      'ROLE_HIERARCHY',
    );
    expectError(
      await h.v2('/users/banned', { method: 'POST', json: { userId: 3 }, key: max }),
      403,
      'ROLE_HIERARCHY',
    );
    expectError(await h.v2('/users/banned/1', { method: 'DELETE', key: max }), 403, 'ROLE_HIERARCHY');
    expectError(
      await h.v2('/users/3/email/change', { method: 'POST', json: { email: 'mia2@demo.example' }, key: max }),
      403,
      'ROLE_HIERARCHY',
    );
    expect(userStatus(1)).toBe(false);
    expect(userStatus(3)).toBe(false);
    expect(h.platform.tenant('demo').users.get(3)?.email).toBe('mia@demo.example');
    expect(await h.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key: max })).toMatchObject({
      status: 200,
      body: { userId: 13, status: 'banned' },
    });
    expect((await h.v2('/users/banned/13', { method: 'DELETE', key: max })).status).toBe(200);
  });

  it('requires the target strictly below the caller: an admin may not ban itself (seed 000, Permission identifiers: role hierarchy)', async () => {
    expectError(await h.v2('/users/banned', { method: 'POST', json: { userId: 1 } }), 403, 'ROLE_HIERARCHY');
    expect(userStatus(1)).toBe(false);
  });

  it("refuses 403 CHAIN_NOT_OWNED to anyone but the chain's owner, the admin included (seed 000, assign_chain: caller owns the chain)", async () => {
    const max = await keyOf(2);
    const assign = (chainId: number, key: string) =>
      h.v2(`/courseChains/${chainId}/assign`, { method: 'POST', json: { users: [12] }, key });
    expectError(await assign(2, WRITE_KEY), 403, 'CHAIN_NOT_OWNED');
    expectError(await assign(1, max), 403, 'CHAIN_NOT_OWNED');
    const lily = () =>
      h.platform
        .tenant('demo')
        .assignmentsOfUser(12)
        .map((a) => a.courseId);
    expect(lily()).not.toContain(43);
    expect(await assign(2, max)).toMatchObject({ status: 200, body: { chainId: 2, courseIds: [3, 43, 44] } });
    expect(lily()).toEqual(expect.arrayContaining([3, 43, 44]));
  });

  it('requires course_edit on that specific course: an author edits courses owned or shared, not others; the admin edits any (seed 000, course_edit on the specific course)', async () => {
    const otto = await keyOf(5);
    // Course 1 is Aria's and shared with Otto; course 3 is Aria's alone; course 2 is Otto's.
    const course3 = (await h.v2('/courses/3')).body.structure.elements;
    const question3 = course3.find((e: any) => e.type === 'question').id;
    const clone = (courseId: number, key: string) =>
      h.v2('/courses/clone', { method: 'POST', json: { courseId }, key });
    expect((await clone(1, otto)).status).toBe(201);
    expect((await clone(2, otto)).status).toBe(201);
    expectError(await clone(3, otto), 403, 'COURSE_EDIT_DENIED');
    expectError(
      await h.v2('/ai/courses/3/refine', { method: 'POST', json: { feedback: 'ladders' }, key: otto }),
      403,
      'COURSE_EDIT_DENIED',
    );
    expectError(
      await h.v2(`/ai/questions/${question3}/regenerate`, { method: 'POST', json: {}, key: otto }),
      403,
      'COURSE_EDIT_DENIED',
    );
    expect((await h.v2('/courses/3')).body.structure.elements).toEqual(course3);
    expect((await clone(3, await keyOf(4))).status).toBe(201);
    expect((await clone(2, WRITE_KEY)).status).toBe(201);
  });
});

describe('capabilities (seed 000, Capabilities response; Authentication 3)', () => {
  beforeAll(reset);
  afterEach(fullLicence);
  afterAll(reset);

  it('answers the effective tier and scopes, the owner (id, name, email), resources [] and, for a read key, exactly the read tools', async () => {
    expect(await capabilities(READ_KEY)).toEqual({
      tier: 'full',
      scopes: { read: true, write: false },
      user: { id: 1, name: 'Ada Admin', email: 'ada@demo.example' },
      tools: expect.any(Array),
      resources: [],
    });
    expect(sorted((await capabilities(READ_KEY)).tools)).toEqual(sorted(READ_TOOLS));
  });

  it('offers every tool to an admin write key on a full tenant with AI', async () => {
    const caps = await capabilities(WRITE_KEY);
    expect(caps.tools).toHaveLength(READ_TOOLS.length + WRITE_TOOLS.length + AI_TOOLS.length);
    expect(sorted(caps.tools)).toEqual(sorted([...READ_TOOLS, ...WRITE_TOOLS, ...AI_TOOLS]));
  });

  it('offers the read and write tools, none of AI, to an admin write key when mcpAiAccess is false', async () => {
    await licence({ mcpAiAccess: false });
    const caps = await capabilities(WRITE_KEY);
    expect(caps.tools).toHaveLength(READ_TOOLS.length + WRITE_TOOLS.length);
    expect(sorted(caps.tools)).toEqual(sorted([...READ_TOOLS, ...WRITE_TOOLS]));
  });

  it('never offers the announced but absent tools, whatever the key or tier (seed 000, What the service does 5)', async () => {
    const keys = [READ_KEY, WRITE_KEY, await keyOf(2), await keyOf(4), await keyOf(6)];
    for (const patch of [{}, { mcpAiAccess: false }, { mcpAccess: 'read' as const }]) {
      await licence(patch);
      for (const key of keys) {
        const { tools } = await capabilities(key);
        for (const absent of ABSENT_TOOLS) expect(tools).not.toContain(absent);
      }
    }
  });

  it("filters by the owner's permissions: a learner's write key sees only what a learner may do", async () => {
    const caps = await capabilities(await keyOf(6));
    expect(caps.scopes).toEqual({ read: true, write: true });
    expect(sorted(caps.tools)).toEqual(sorted(['list_my_assignments', 'get_course_generation_status']));
  });

  it("filters by the owner's permissions: a manager's write key gets every read tool and the write tools but clone_course, no AI authoring", async () => {
    const caps = await capabilities(await keyOf(2));
    expect(sorted(caps.tools)).toEqual(
      sorted([
        ...READ_TOOLS,
        ...WRITE_TOOLS.filter((t) => t !== 'clone_course'),
        'get_course_generation_status',
      ]),
    );
  });

  it("filters by the owner's permissions: an author's write key gets the course tools, clone_course and the AI tools, no user tools", async () => {
    const caps = await capabilities(await keyOf(4));
    expect(sorted(caps.tools)).toEqual(
      sorted(['find_course', 'get_course', 'list_my_assignments', 'clone_course', ...AI_TOOLS]),
    );
  });

  /** One sample request per tool, against targets every role that holds the permission may touch. */
  let emails = 0;
  const SAMPLE: Record<string, () => { method?: string; path: string; json?: unknown; body?: FormData }> = {
    find_user: () => ({ path: '/users?query=lena' }),
    get_user: () => ({ path: '/users/6' }),
    find_course: () => ({ path: '/courses?query=safety' }),
    get_course: () => ({ path: '/courses/1' }),
    list_assignments: () => ({ path: '/users/6/courses/assignments' }),
    list_my_assignments: () => ({ path: '/courses/assigned/me' }),
    get_compliance_status: () => ({ path: '/courses/1/statistics/users' }),
    list_certificates: () => ({ path: '/users/6/certificates' }),
    get_statistics: () => ({ path: '/statistics/overview' }),
    get_leaderboard: () => ({ path: '/statistics/leaders' }),
    get_audit_log: () => ({ path: '/audit' }),
    assign_training: () => ({ method: 'POST', path: '/courses/5/assignments/users', json: { userId: 13 } }),
    bulk_assign: () => ({ method: 'POST', path: '/courses/5/assignments', json: { groups: [4] } }),
    assign_chain: () => ({ method: 'POST', path: '/courseChains/1/assign', json: { users: [13] } }),
    ban_user: () => ({ method: 'POST', path: '/users/banned', json: { userId: 13 } }),
    unban_user: () => ({ method: 'DELETE', path: '/users/banned/13' }),
    change_user_email: () => ({
      method: 'POST',
      path: '/users/13/email/change',
      json: { email: `lars.${++emails}@demo.example` },
    }),
    clone_course: () => ({ method: 'POST', path: '/courses/clone', json: { courseId: 1 } }),
    upload_source_material: () => ({
      method: 'POST',
      path: '/chat/source-materials/upload',
      body: form(PNG, 'a.png'),
    }),
    create_course_from_prompt: () => ({
      method: 'POST',
      path: '/ai/courses/generate',
      json: { prompt: 'Ladders' },
    }),
    create_course_from_files: () => ({
      method: 'POST',
      path: '/ai/courses/generate',
      json: { prompt: 'Ladders', sessionId: 'ses_none' },
    }),
    get_course_generation_status: () => ({ path: '/ai/courses/generate/job_none' }),
    refine_course: () => ({ method: 'POST', path: '/ai/courses/1/refine', json: { feedback: 'ladders' } }),
    regenerate_question: () => ({ method: 'POST', path: '/ai/questions/3/regenerate', json: {} }),
    regenerate_lesson: () => ({ method: 'POST', path: '/ai/lessons/1/regenerate', json: {} }),
  };

  it.each([
    ["the admin's read key", 'read', {}],
    ["the admin's write key, full tier with AI", 'write', {}],
    ["the admin's write key, AI off", 'write', { mcpAiAccess: false }],
    ["the admin's write key, tier read", 'write', { mcpAccess: 'read' }],
    ["a manager's write key", 2, {}],
    ["an author's write key", 4, {}],
    ["a learner's write key", 6, {}],
  ] as const)(
    'offers exactly the tools %s can call: the others get 403, the offered ones never a scope, licence or permission refusal (seed 000, Errors: "Tools an agent cannot call are not offered")',
    async (_who, owner, patch) => {
      expect(sorted(Object.keys(SAMPLE))).toEqual(sorted([...READ_TOOLS, ...WRITE_TOOLS, ...AI_TOOLS]));
      const key = owner === 'read' ? READ_KEY : owner === 'write' ? WRITE_KEY : await keyOf(owner);
      await licence(patch);
      const offered = new Set<string>((await capabilities(key)).tools);
      for (const [tool, sample] of Object.entries(SAMPLE)) {
        const { path, ...init } = sample();
        const reply = await h.v2(path, { ...init, key });
        const seen = { tool, status: reply.status, code: reply.body?.code };
        if (offered.has(tool)) {
          expect(seen.status, JSON.stringify(seen)).toBeLessThan(500);
          expect(seen.status, JSON.stringify(seen)).not.toBe(401);
          expect(CAPABILITY_REFUSALS, JSON.stringify(seen)).not.toContain(seen.code);
        } else {
          expect(seen.status, JSON.stringify(seen)).toBe(403);
          expect(CAPABILITY_REFUSALS, JSON.stringify(seen)).toContain(seen.code);
        }
      }
    },
  );
});

describe('limits (seed 000, Limits)', () => {
  beforeAll(reset);
  afterAll(reset);

  const regenerateLesson = (key: string) =>
    h.v2('/ai/lessons/1/regenerate', { method: 'POST', json: {}, key });

  it('refuses the 6th AI call of the day by one key 429 MCP_RATE_LIMITED, naming the reset, with Retry-After; generation and refinement share the 5 calls (seed 000, Limits: AI tools 5 per key per day)', async () => {
    const key = await keyOf(1);
    const calls = [
      () => h.v2('/ai/courses/generate', { method: 'POST', json: { prompt: 'A course about ladders' }, key }),
      () =>
        h.v2('/ai/courses/generate', { method: 'POST', json: { prompt: 'A course about scaffolds' }, key }),
      () => h.v2('/ai/courses/1/refine', { method: 'POST', json: { feedback: 'ladders' }, key }),
      () => h.v2('/ai/questions/3/regenerate', { method: 'POST', json: {}, key }),
      () => regenerateLesson(key),
    ];
    for (const call of calls) expect((await call()).status).toBeLessThan(300);
    const jobs = h.platform.tenant('demo').jobs.size;
    const sixth = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'A course about roofs' },
      key,
    });
    expectError(sixth, 429, 'MCP_RATE_LIMITED');
    const now = h.platform.now();
    expect(retryDelay(sixth)).toBe(nextUtcMidnight(now) - now);
    expect(sixth.body.error).toContain(iso(nextUtcMidnight(now)));
    expect(h.platform.tenant('demo').jobs.size).toBe(jobs);
    // The quota is the key's: another key of the same owner still has its 5.
    expect((await regenerateLesson(await keyOf(1))).status).toBe(200);
  });

  it('allows AI calls again when the virtual clock reaches the next UTC day, not a second before (seed 000, Limits: "per day"; docs/adr-0002: UTC day of the virtual clock)', async () => {
    const key = await keyOf(1);
    for (let i = 0; i < 5; i++) expect((await regenerateLesson(key)).status).toBe(200);
    const refused = await regenerateLesson(key);
    expectError(refused, 429, 'MCP_RATE_LIMITED');
    const wait = retryDelay(refused);
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: wait - 1 } });
    expectError(await regenerateLesson(key), 429, 'MCP_RATE_LIMITED');
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 1 } });
    expect(h.platform.now() % 86_400).toBe(0);
    expect((await regenerateLesson(key)).status).toBe(200);
  });

  it('does not count polling the job status or uploading against the AI quota (docs/adr-0002: the quota is the generation and refinement tools)', async () => {
    const key = await keyOf(1);
    const job = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'A course about ropes' },
      key,
    });
    for (let i = 0; i < 4; i++) expect((await regenerateLesson(key)).status).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await h.v2(`/ai/courses/generate/${job.body.jobId}`, { key })).status).toBe(200);
    const upload = await h.v2('/chat/source-materials/upload', {
      method: 'POST',
      body: form(PNG, 'a.png'),
      key,
    });
    expect(upload.status).toBe(201);
    expectError(await regenerateLesson(key), 429, 'MCP_RATE_LIMITED');
  });

  it('refuses AI calls past 50 per tenant per day, whichever key makes them, 429 MCP_RATE_LIMITED with Retry-After (seed 000, Limits: 50 calls per tenant per day)', async () => {
    await reset();
    const keys = [];
    for (let i = 0; i < 11; i++) keys.push(await keyOf(i % 2 ? 1 : 4));
    for (const key of keys.slice(0, 10))
      for (let i = 0; i < 5; i++) expect((await regenerateLesson(key)).status).toBe(200);
    const fresh = keys[10] ?? '';
    const refused = await regenerateLesson(fresh);
    expectError(refused, 429, 'MCP_RATE_LIMITED');
    expect(refused.body.error).toMatch(/50/);
    const wait = retryDelay(refused);
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: wait } });
    expect((await regenerateLesson(fresh)).status).toBe(200);
  });

  it('find_user: limit default 20, maximum 50; 51 is refused 400 (seed 000, Limits: find_user limit)', async () => {
    for (let i = 1; i <= 25; i++) {
      const created = await h.v1('/users', {
        method: 'POST',
        json: {
          name: `Bulk Person ${i}`,
          email: `bulk${i}@example.test`,
          password: 'correct horse',
          roleAlias: 'learner',
        },
      });
      expect(created.status).toBe(201);
    }
    const byDefault = await h.v2('/users?query=bulk%20person');
    expect(byDefault.body.users).toHaveLength(20);
    expect(byDefault.body.totalCount).toBe(25);
    expect((await h.v2('/users?query=bulk%20person&limit=50')).body.users).toHaveLength(25);
    expect((await h.v2('/users?query=bulk%20person&limit=7')).body.users).toHaveLength(7);
    expectError(await h.v2('/users?query=bulk%20person&limit=51'), 400, 'VALIDATION_ERROR');
    expectError(await h.v2('/users?query=bulk%20person&limit=0'), 400, 'VALIDATION_ERROR');
  });

  it('find_course: limit default 20, maximum 50; 51 is refused 400 (seed 000, Limits: find_course limit)', async () => {
    const all = await h.v2('/courses?query=e&limit=50');
    expect(all.body.totalCount).toBeGreaterThan(20);
    expect(all.body.courses).toHaveLength(Math.min(50, all.body.totalCount));
    const byDefault = await h.v2('/courses?query=e');
    expect(byDefault.body.courses).toHaveLength(20);
    expect(byDefault.body.totalCount).toBe(all.body.totalCount);
    expectError(await h.v2('/courses?query=e&limit=51'), 400, 'VALIDATION_ERROR');
  });

  it('get_leaderboard: limit default 10, maximum 50; 51 is refused 400 (seed 000, Limits: get_leaderboard limit)', async () => {
    // Eight more users finish course 1 (everyone is assigned it through Company): 13 leaders.
    for (const userId of [1, 3, 4, 5, 9, 11, 12, 13]) {
      const done = await h.admin(`/tenants/demo/users/${userId}/courses/1/progress`, {
        method: 'POST',
        json: { action: 'finish', resultValue: 50 + userId },
      });
      expect(done.status).toBe(200);
    }
    expect((await h.v2('/statistics/leaders')).body.leaders).toHaveLength(10);
    expect((await h.v2('/statistics/leaders?limit=50')).body.leaders).toHaveLength(13);
    expect((await h.v2('/statistics/leaders?limit=3')).body.leaders).toHaveLength(3);
    expectError(await h.v2('/statistics/leaders?limit=51'), 400, 'VALIDATION_ERROR');
  });

  it('get_audit_log: limit default 50, maximum 250; 251 is refused 400 (seed 000, Limits: get_audit_log limit)', async () => {
    const byDefault = await h.v2('/audit');
    expect(byDefault.body.totalCount).toBeGreaterThan(50);
    expect(byDefault.body).toMatchObject({ limit: 50, offset: 0 });
    expect(byDefault.body.entries).toHaveLength(50);
    const max = await h.v2('/audit?limit=250');
    expect(max.body.entries).toHaveLength(Math.min(250, byDefault.body.totalCount));
    expectError(await h.v2('/audit?limit=251'), 400, 'VALIDATION_ERROR');
  });

  it('accepts a source file just under 20 MB and refuses one byte over 413 FILE_TOO_LARGE (seed 000, Limits: source file upload 20 MB)', async () => {
    const limit = 20 * 1024 * 1024;
    const under = Buffer.alloc(limit - 1);
    PNG.copy(under);
    const accepted = await h.v2('/chat/source-materials/upload', {
      method: 'POST',
      body: form(under, 'big.png'),
    });
    expect(accepted).toMatchObject({ status: 201, body: { mimeType: 'image/png', size: limit - 1 } });
    const over = Buffer.alloc(limit + 1);
    PNG.copy(over);
    expectError(
      await h.v2('/chat/source-materials/upload', { method: 'POST', body: form(over, 'bigger.png') }),
      413,
      'FILE_TOO_LARGE',
    );
  });

  it('accepts a source file of exactly 20 MB, the documented maximum (seed 000, Limits: "20 MB per file"; Upload constraints: "20 MB maximum")', async () => {
    const exact = Buffer.alloc(20 * 1024 * 1024);
    PNG.copy(exact);
    const accepted = await h.v2('/chat/source-materials/upload', {
      method: 'POST',
      body: form(exact, 'exact.png'),
    });
    expect(accepted).toMatchObject({ status: 201, body: { mimeType: 'image/png', size: 20 * 1024 * 1024 } });
  });

  it('generates 6 modules when no module count is given (seed 000, Limits: default module count 6)', async () => {
    const job = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'A course about knots' },
    });
    expect(job.status).toBe(202);
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 30 } });
    const done = await h.v2(`/ai/courses/generate/${job.body.jobId}`);
    expect(done.body.status).toBe('completed');
    const { elements } = (await h.v2(`/courses/${done.body.result.courseId}`)).body.structure;
    expect(elements.filter((e: any) => e.type === 'lesson')).toHaveLength(6);
    expect(elements.filter((e: any) => e.type === 'question')).toHaveLength(6);
  });

  it('finishes a generation job after 10 to 30 seconds of virtual time, never sooner or later (seed 000, Limits: generation duration)', async () => {
    const key = await keyOf(1);
    const jobs: string[] = [];
    for (const prompt of [
      'A course about fire exits',
      'Kurs über Brandschutz',
      'A course about first aid kits',
    ]) {
      const reply = await h.v2('/ai/courses/generate', { method: 'POST', json: { prompt }, key });
      jobs.push(reply.body.jobId);
    }
    const finishedAfter = new Map<string, number>();
    for (let second = 0; second <= 31; second++) {
      for (const id of jobs) {
        if (finishedAfter.has(id)) continue;
        const { body } = await h.v2(`/ai/courses/generate/${id}`, { key });
        if (body.status !== 'queued') finishedAfter.set(id, second);
      }
      await h.admin('/clock/advance', { method: 'POST', json: { seconds: 1 } });
    }
    expect(finishedAfter.size).toBe(3);
    for (const seconds of finishedAfter.values()) {
      expect(seconds).toBeGreaterThanOrEqual(10);
      expect(seconds).toBeLessThanOrEqual(30);
    }
  });
});

/** A request to /api/v2 from another loopback address (to tell two client IPs apart). */
function requestFrom(
  base: string,
  localAddress: string,
  path: string,
  key: string,
): Promise<{ status: number; body: any }> {
  const url = new URL(`/api/v2${path}`, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        localAddress,
        headers: { 'x-mcp-key': key },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

// The limits below run on wall-clock time: the tests never wait for a refill, they read the delay.
describe('per-key rate limit (seed 000, Errors: 429 MCP_RATE_LIMITED; docs/adr-0002: token bucket per key)', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await startHarness('demo', {
      requestsPerMinute: 3,
      failedAuthMax: 3,
      failedAuthWindowSeconds: 300,
    });
  });
  afterAll(() => small.close());

  it('answers 429 MCP_RATE_LIMITED with the delay in the message ("retry after Ns") and in Retry-After once a key has used its requests (seed 000, Errors 429; "A 429 carries the retry delay inside the error message text")', async () => {
    const { key } = await small.newKey(1, ['read', 'write']);
    for (let i = 0; i < 3; i++) expect((await small.v2('/users/6', { key })).status).toBe(200);
    const refused = await small.v2('/users/6', { key });
    expectError(refused, 429, 'MCP_RATE_LIMITED');
    expect(retryDelay(refused)).toBeLessThanOrEqual(20);
    // A refused write changes nothing.
    expectError(
      await small.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key }),
      429,
      'MCP_RATE_LIMITED',
    );
    expect(small.platform.tenant('demo').users.get(13)?.isBanned).toBe(false);
  });

  it('limits each key on its own: another key of the same owner is still answered (seed 000, Errors: per-key rate limit)', async () => {
    const first = await small.newKey(2, ['read']);
    const second = await small.newKey(2, ['read']);
    for (let i = 0; i < 3; i++) await small.v2('/users/6', { key: first.key });
    expect((await small.v2('/users/6', { key: first.key })).status).toBe(429);
    expect((await small.v2('/users/6', { key: second.key })).status).toBe(200);
  });

  it('checks the rate limit before the permission: a learner key past its limit gets 429, not 403 (docs/mock.md, the pipeline order)', async () => {
    const { key } = await small.newKey(6, ['read', 'write']);
    for (let i = 0; i < 3; i++) expect((await small.v2('/courses/assigned/me', { key })).status).toBe(200);
    expectError(await small.v2('/users?query=a', { key }), 429, 'MCP_RATE_LIMITED');
  });
});

describe('failed authentication per IP (seed 000, Errors: 429 MCP_AUTH_RATE_LIMITED)', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await startHarness('demo', {
      requestsPerMinute: 3,
      failedAuthMax: 3,
      failedAuthWindowSeconds: 300,
    });
  });
  afterAll(() => small.close());

  it('answers 429 MCP_AUTH_RATE_LIMITED "too many failed attempts, retry after Ns" with Retry-After past the threshold, even to a valid key from that IP (seed 000, Errors 429)', async () => {
    // A request without a key is refused but is no attempt at a key: it does not count.
    for (let i = 0; i < 5; i++)
      expectError(await small.v2('/mcp/capabilities', { key: null }), 401, 'UNAUTHORIZED');
    for (const key of ['guess', 'wrong', `lmcp_${'C'.repeat(43)}`]) {
      expectError(await small.v2('/mcp/capabilities', { key }), 401, 'UNAUTHORIZED');
    }
    const blocked = await small.v2('/mcp/capabilities', { key: 'wrong again' });
    expectError(blocked, 429, 'MCP_AUTH_RATE_LIMITED');
    expect(blocked.body.error).toMatch(/too many failed attempts, retry after \d+s/i);
    const wait = retryDelay(blocked);
    expect(wait).toBeGreaterThan(250);
    expect(wait).toBeLessThanOrEqual(300);
    expectError(await small.v2('/mcp/capabilities', { key: WRITE_KEY }), 429, 'MCP_AUTH_RATE_LIMITED');
  });

  // Needs a second loopback address (127.0.0.2), which Linux has and macOS does not by default.
  it.runIf(process.platform === 'linux')(
    'counts per client IP: another address is still answered while one is blocked (seed 000, Errors: "per-IP limit")',
    async () => {
      for (let i = 0; i < 4; i++) await small.v2('/mcp/capabilities', { key: 'wrong' });
      expect((await small.v2('/mcp/capabilities', { key: WRITE_KEY })).status).toBe(429);
      const other = await requestFrom(small.base, '127.0.0.2', '/mcp/capabilities', WRITE_KEY);
      expect(other).toMatchObject({ status: 200, body: { user: { id: 1 } } });
    },
  );
});

describe('default thresholds (seed 000, Limits: per-key rate limit and per-IP failed-auth threshold "not shown"; docs/adr-0002)', () => {
  let defaults: Harness;
  beforeAll(async () => {
    defaults = await startHarness('demo', {});
  });
  afterAll(() => defaults.close());

  it('allows 120 requests a minute per key, then answers 429 MCP_RATE_LIMITED (docs/adr-0002: 120/min per key)', async () => {
    const { key } = await defaults.newKey(1, ['read']);
    const started = Date.now();
    let answered = 0;
    let refused: Reply | undefined;
    while (!refused && answered < 200) {
      const reply = await defaults.v2('/courses/assigned/me', { key });
      if (reply.status === 429) refused = reply;
      else answered++;
    }
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(answered).toBeGreaterThanOrEqual(120);
    // The bucket refills 2 tokens a second while the loop runs.
    expect(answered).toBeLessThanOrEqual(120 + Math.ceil(elapsedSeconds * 2));
    expect(refused).toBeDefined();
    if (refused) expectError(refused, 429, 'MCP_RATE_LIMITED');
  });

  it('allows 20 failed authentications per IP in 5 minutes, then answers 429 MCP_AUTH_RATE_LIMITED (docs/adr-0002: 20 per 5 minutes)', async () => {
    for (let i = 0; i < 20; i++)
      expect((await defaults.v2('/mcp/capabilities', { key: `wrong-${i}` })).status).toBe(401);
    const blocked = await defaults.v2('/mcp/capabilities', { key: WRITE_KEY });
    expectError(blocked, 429, 'MCP_AUTH_RATE_LIMITED');
    const wait = retryDelay(blocked);
    expect(wait).toBeGreaterThan(250);
    expect(wait).toBeLessThanOrEqual(300);
  });
});
