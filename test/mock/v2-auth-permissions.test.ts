// In-process HTTP tests of the /api/v2 pipeline, one test per row of seed 000's tables: the permission rules (seed 000, Permission identifiers used by tools) and the capabilities filter (seed 000, Capabilities response).
// Shared helpers and the harness: v2-auth-setup.ts.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolName } from '../../generated/tools/index.ts';
import { READ_KEY, WRITE_KEY } from './harness.ts';
import {
  ABSENT_TOOLS,
  AI_TOOLS,
  CAPABILITY_REFUSALS,
  capabilities,
  expectError,
  form,
  fullLicence,
  h,
  keyOf,
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

  /** One sample request per tool (keyed by its name: a new tool is a compile error until it has one), against targets every role that holds the permission may touch. */
  let emails = 0;
  const SAMPLE: Record<ToolName, () => { method?: string; path: string; json?: unknown; body?: FormData }> = {
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
