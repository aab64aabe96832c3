// In-process HTTP tests of the /api/v2 pipeline, one test per row of seed 000's tables: the tenant restrictions (seed 000, Tenant restrictions (licence); Errors 402/403).
// Shared helpers and the harness: v2-auth-setup.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READ_KEY, WRITE_KEY } from './harness.ts';
import {
  capabilities,
  expectError,
  form,
  fullLicence,
  h,
  keyOf,
  LICENSE_DISABLED_TEXT,
  licence,
  PNG,
  READ_TOOLS,
  reset,
  sorted,
  useHarness,
  userStatus,
  WRITE_TOOLS,
} from './v2-auth-setup.ts';

useHarness();

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

  it('x-assumed: a write-only key may read — a key issued with `write` alone is offered the read tools and calls read operations, on tier full and, clamped to read-only, on tier read', async () => {
    const writeOnly = await keyOf(1, ['write']);
    expect(await capabilities(writeOnly)).toMatchObject({
      tier: 'full',
      scopes: { read: true, write: true },
    });
    expect(sorted((await capabilities(writeOnly)).tools)).toEqual(expect.arrayContaining(sorted(READ_TOOLS)));
    expect((await h.v2('/users?query=lena', { key: writeOnly })).status).toBe(200);
    expect((await h.v2('/courses/1', { key: writeOnly })).status).toBe(200);
    expect(
      (await h.v2('/courses/clone', { method: 'POST', json: { courseId: 1 }, key: writeOnly })).status,
    ).toBe(201);
    await licence({ mcpAccess: 'read' });
    const clamped = await capabilities(writeOnly);
    expect(clamped).toMatchObject({ tier: 'read', scopes: { read: true, write: false } });
    expect(sorted(clamped.tools)).toEqual(sorted(READ_TOOLS));
    expect((await h.v2('/users?query=lena', { key: writeOnly })).status).toBe(200);
  });

  it('x-assumed: `mcpLicensed: false` with `mcpAccess: full` — keys already issued keep reading and writing as tier full allows; only generating and revoking keys answer 402 LICENSE_RESTRICTED', async () => {
    const { id } = await h.newKey(1, ['read']);
    await licence({ mcpLicensed: false, mcpAccess: 'full' });
    expect(await capabilities(WRITE_KEY)).toMatchObject({
      tier: 'full',
      scopes: { read: true, write: true },
    });
    expect(sorted((await capabilities(WRITE_KEY)).tools)).toEqual(
      expect.arrayContaining(sorted([...READ_TOOLS, ...WRITE_TOOLS])),
    );
    expect((await h.v2('/users?query=lena')).status).toBe(200);
    expect((await h.v2('/users/banned', { method: 'POST', json: { userId: 13 } })).status).toBe(200);
    expect(userStatus(13)).toBe(true);
    expect((await h.v2('/users/banned/13', { method: 'DELETE' })).status).toBe(200);
    expectError(
      await h.admin('/tenants/demo/mcp-keys', { method: 'POST', json: { userId: 1, scopes: ['read'] } }),
      402,
      'LICENSE_RESTRICTED',
    );
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
