// A tenant's assignments a page at a time (openapi/admin listTenantAssignments; docs/console.md, Data):
// filtered by learner, course and status, paged on the server, the total over all pages. A filter by
// learner or course reads that learner's or course's assignments through the tenant's indexes, never
// the whole list, so the 100 000-user scale seed pages as quickly as the demo. Every answer is checked
// against the contract by the harness.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../mock/domain/clock.ts';
import type { Assignment } from '../../mock/domain/model.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { START } from '../../mock/seed/demo.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { scaleTenant } from '../../mock/seed/scale.ts';
import { startServer } from '../../mock/server.ts';
import { ADMIN_TOKEN, type Harness, startHarness } from './harness.ts';

type Listed = { userId: number; courseId: number; status: string };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const list = async (query: string) => h.admin(`/tenants/demo/assignments?${query}`);
const pairs = (items: { userId: number; courseId: number }[]) =>
  items.map((a) => `${a.userId}/${a.courseId}`);

describe('listTenantAssignments (docs/console.md, Data)', () => {
  it('pages every assignment in the order they were made, with the total over all pages', async () => {
    const all = (await list('limit=1000')).body;
    expect(all.total).toBe(h.platform.tenant('demo').assignmentCount());
    expect(all.assignments).toHaveLength(all.total);
    const made = [...h.platform.tenant('demo').assignments.values()].sort((a, b) => a.id - b.id);
    expect(pairs(all.assignments)).toEqual(pairs(made));
    const first = (await list('limit=3')).body;
    const second = (await list('limit=3&offset=3')).body;
    expect(pairs([...first.assignments, ...second.assignments])).toEqual(pairs(all.assignments.slice(0, 6)));
    expect(second.total).toBe(all.total);
    // The contract's default page is 50.
    expect((await list('')).body.assignments.length).toBe(Math.min(50, all.total));
    expect((await list(`offset=${all.total}`)).body).toEqual({ assignments: [], total: all.total });
  });

  it('filters by learner (integer id or API ID), by course, by both and by status', async () => {
    const all: Listed[] = (await list('limit=1000')).body.assignments;
    const lena = h.platform.tenant('demo').userByApiId('lena');
    if (!lena) throw new Error('the demo seed has no lena');
    const hers = all.filter((a) => a.userId === lena.id);
    expect(hers.length).toBeGreaterThan(1);
    for (const ref of [String(lena.id), 'lena']) {
      const { body } = await list(`userId=${ref}&limit=1000`);
      expect(pairs(body.assignments), ref).toEqual(pairs(hers));
      expect(body.total).toBe(hers.length);
    }
    const courseId = hers[0]?.courseId;
    const ofCourse = all.filter((a) => a.courseId === courseId);
    expect(pairs((await list(`courseId=${courseId}&limit=1000`)).body.assignments)).toEqual(pairs(ofCourse));
    expect((await list(`courseId=${courseId}&userId=lena`)).body).toMatchObject({
      assignments: [{ userId: lena.id, courseId }],
      total: 1,
    });
    const statuses = new Set(all.map((a) => a.status));
    expect(statuses.size).toBeGreaterThan(1);
    for (const status of statuses) {
      const { body } = await list(`status=${status}&limit=2`);
      const matching = all.filter((a) => a.status === status);
      expect(body.total, status).toBe(matching.length);
      expect(pairs(body.assignments)).toEqual(pairs(matching.slice(0, 2)));
    }
    // A course nobody is assigned to, and a learner with none of it: an empty page, not an error.
    const unassigned = [...h.platform.tenant('demo').unassignedCourses][0];
    expect((await list(`courseId=${unassigned}`)).body).toEqual({ assignments: [], total: 0 });
  });

  it('refuses an unknown learner or course with 404 NOT_FOUND and bad filters with 400 VALIDATION_ERROR, changing nothing', async () => {
    const before = JSON.stringify(h.platform.snapshot());
    for (const query of ['userId=999999', 'userId=nobody', 'courseId=999999']) {
      const { status, body } = await list(query);
      expect({ status, code: body.code }, query).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    expect((await h.admin('/tenants/nowhere/assignments')).body.code).toBe('NOT_FOUND');
    for (const query of [
      'status=done',
      'courseId=0',
      'courseId=seven',
      'limit=0',
      'limit=1001',
      'offset=-1',
      'userId=a-b',
    ]) {
      const { status, body } = await list(query);
      expect({ status, code: body.code }, query).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await list('status=done')).body.error).toContain('status');
    expect(JSON.stringify(h.platform.snapshot())).toBe(before);
  });
});

describe('listTenantAssignments at scale (docs/console.md, Data: paging happens on the server)', () => {
  let platform: Platform;
  let base = '';
  let close: () => void;
  beforeAll(async () => {
    platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
    platform.load(
      { now: START, tenants: [scaleTenant({ users: 20_000, courses: 200, assignments: 100_000 })] },
      true,
    );
    const running = await startServer({
      platform,
      adminToken: ADMIN_TOKEN,
      validateResponses: true,
      version: 'test',
      webhooks: false,
    });
    base = running.url;
    close = running.close;
  });
  afterAll(() => close());

  const page = async (query: string) =>
    (
      await fetch(`${base}/__admin/tenants/demo/assignments?${query}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json();

  it('reads a learner’s or a course’s assignments through the indexes, never the whole list', async () => {
    const whole = vi.spyOn(platform.tenant('demo').assignments, 'forEachRow');
    const learner = await page('userId=u77&limit=5');
    expect(learner.assignments.every((a: Listed) => a.userId === 77)).toBe(true);
    const course = await page('courseId=3&status=notStarted&limit=5');
    expect(course.total).toBeGreaterThan(0);
    expect(course.assignments.every((a: Listed) => a.courseId === 3 && a.status === 'notStarted')).toBe(true);
    expect(whole).not.toHaveBeenCalled();
    whole.mockRestore();
  });

  it('makes only the records of a page: unfiltered, or by status after looking at every row', async () => {
    const table = platform.tenant('demo').assignments;
    const made = vi.spyOn(table, 'record');
    const values = vi.spyOn(table, 'values');
    const unfiltered = await page('offset=99990&limit=25');
    expect(unfiltered.total).toBe(100_000);
    expect(unfiltered.assignments).toHaveLength(10);
    expect(unfiltered.assignments[0]).toMatchObject({
      userId: (table.slice(99_990, 1)[0] as Assignment).userId,
    });
    const started = await page('status=inProgress&offset=100&limit=25');
    expect(started.total).toBeGreaterThan(125);
    expect(started.assignments).toHaveLength(25);
    expect(started.assignments.every((a: Listed) => a.status === 'inProgress')).toBe(true);
    expect(made.mock.calls.length).toBeLessThanOrEqual(10 + 25 + 1);
    expect(values).not.toHaveBeenCalled();
    made.mockRestore();
    values.mockRestore();
  });
});
