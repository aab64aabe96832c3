// The admin API's browsing operations (openapi/admin: listTenants, listTenantUsers with paging,
// getTenantUser, listTenantGroups, listTenantCourses, listAiJobs) over HTTP, each answer checked
// against the contract by the harness. Paging is on the server, so a large tenant never travels whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('browsing a tenant (admin API, Tenants, Courses, AI)', () => {
  it('lists the tenants with their licence switches', async () => {
    const { status, body } = await h.admin('/tenants');
    expect(status).toBe(200);
    expect(body.tenants.map((t: { id: string }) => t.id)).toContain('demo');
  });

  it('pages users on the server and searches name or e-mail, with the total that matches', async () => {
    const all = (await h.admin('/tenants/demo/users')).body;
    expect(all.total).toBe(all.users.length);
    const first = (await h.admin('/tenants/demo/users?limit=2')).body;
    const second = (await h.admin('/tenants/demo/users?limit=2&offset=2')).body;
    expect(first.users.map((u: { id: number }) => u.id)).toEqual(
      all.users.slice(0, 2).map((u: { id: number }) => u.id),
    );
    expect(second.users.map((u: { id: number }) => u.id)).toEqual(
      all.users.slice(2, 4).map((u: { id: number }) => u.id),
    );
    expect(first.total).toBe(all.total);
    const someone = all.users[1];
    const found = (
      await h.admin(`/tenants/demo/users?query=${encodeURIComponent(someone.email.toUpperCase())}`)
    ).body;
    expect(found.users).toEqual([someone]);
    expect(found.total).toBe(1);
  });

  it('reads a user with groups and assignments and tells an unknown user 404', async () => {
    const { users } = (await h.admin('/tenants/demo/users')).body;
    const withCourses = [];
    for (const u of users) {
      const detail = (await h.admin(`/tenants/demo/users/${u.id}`)).body;
      expect(detail.user).toEqual(u);
      if (detail.assignments.length) withCourses.push(detail);
    }
    expect(withCourses.length).toBeGreaterThan(0);
    expect(withCourses[0].assignments[0]).toMatchObject({
      userId: withCourses[0].user.id,
      status: expect.any(String),
    });
    const missing = await h.admin('/tenants/demo/users/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('pages groups and courses, drafts included, with assignment counts', async () => {
    const groups = (await h.admin('/tenants/demo/groups?limit=1')).body;
    expect(groups.groups).toHaveLength(1);
    expect(groups.total).toBeGreaterThanOrEqual(1);
    const courses = (await h.admin('/tenants/demo/courses?limit=1000')).body;
    expect(courses.total).toBe(courses.courses.length);
    expect(courses.courses.some((c: { isDraft: boolean }) => c.isDraft)).toBe(true);
    const named = courses.courses[0].name as string;
    const found = (await h.admin(`/tenants/demo/courses?query=${encodeURIComponent(named.slice(0, 6))}`))
      .body;
    expect(
      found.courses.every((c: { name: string }) =>
        c.name.toLowerCase().includes(named.slice(0, 6).toLowerCase()),
      ),
    ).toBe(true);
    expect((await h.admin('/tenants/demo/courses?limit=0')).status).toBe(400);
  });

  it('lists generation jobs with the state they have now on the virtual clock', async () => {
    const started = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Fire safety for warehouse staff' },
    });
    expect(started.status).toBeLessThan(300);
    const before = (await h.admin('/tenants/demo/ai/jobs')).body.jobs;
    expect(before[0]).toMatchObject({
      status: 'queued',
      prompt: 'Fire safety for warehouse staff',
      courseId: null,
    });
    await h.admin('/clock/advance', { method: 'POST', json: { seconds: 3600 } });
    const after = (await h.admin('/tenants/demo/ai/jobs')).body.jobs;
    expect(after[0]).toMatchObject({ id: before[0].id, status: 'completed' });
  });
});
