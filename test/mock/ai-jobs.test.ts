// Generation jobs over HTTP (seed 000, AI tools: "generation runs in the background and takes about
// 10-30 seconds"): once the clock passes a job's time, its course is there for every API, the admin
// API (which the console reads) and the snapshot, before anyone polls; course ids follow completion
// order; and who may poll a job (x-assumed on getGenerationJob).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBundle } from '../helpers.ts';
import { type Harness, READ_KEY, startHarness, WRITE_KEY } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  expect((await h.admin('/reset', { method: 'POST', json: {} })).status).toBe(200);
});

const generate = async (prompt: string, seconds: number) => {
  const set = await h.admin('/tenants/demo/ai', {
    method: 'PATCH',
    json: { generationMinSeconds: seconds, generationMaxSeconds: seconds },
  });
  expect(set.status).toBe(200);
  const started = await h.v2('/ai/courses/generate', { method: 'POST', json: { prompt } });
  expect(started.status).toBe(202);
  return started.body.jobId as string;
};
const advance = async (seconds: number) =>
  expect((await h.admin('/clock/advance', { method: 'POST', json: { seconds } })).status).toBe(200);
const poll = (jobId: string, key = WRITE_KEY) => h.v2(`/ai/courses/generate/${jobId}`, { key });
const jobsListed = async () => (await h.admin('/tenants/demo/ai/jobs')).body.jobs as any[];
/** Every course of the v1 list, page by page. */
async function v1Courses(): Promise<{ id: number; name: string }[]> {
  const all: { id: number; name: string }[] = [];
  for (let offset = 0; ; offset += 20) {
    const page = await h.v1(`/courses?offset=${offset}`);
    expect(page.status).toBe(200);
    all.push(...page.body.courses);
    if (all.length >= page.body.totalCount) return all;
  }
}

describe('generation runs in the background (seed 000, AI tools: queued → completed, "generation runs in the background")', () => {
  it('once the clock passes the job’s time, v1 /courses, the admin course list, the admin job list and the snapshot show its course before any poll; the poll then answers that id', async () => {
    const before = await v1Courses();
    const jobId = await generate('Create a course about ladder safety', 20);
    await advance(20);

    const [listed] = await jobsListed();
    expect(listed).toMatchObject({ id: jobId, status: 'completed', courseId: expect.any(Number) });
    const courseId = listed.courseId as number;
    const after = await v1Courses();
    expect(after).toHaveLength(before.length + 1);
    expect(after.find((c) => c.id === courseId)).toMatchObject({ name: 'Ladder safety', isDraft: true });
    expect((await h.v1(`/courses/${courseId}`)).status).toBe(200);
    const admin = (await h.admin('/tenants/demo/courses?query=Ladder%20safety')).body.courses;
    expect(admin.map((c: { id: number }) => c.id)).toContain(courseId);
    const snapshot = (await h.admin('/snapshot')).body;
    expect(snapshot.tenants.demo.courses.map((c: { id: number }) => c.id)).toContain(courseId);
    expect(snapshot.tenants.demo.jobs.find((j: { id: string }) => j.id === jobId)).toMatchObject({
      status: 'completed',
      result: { courseId },
    });

    const polled = await poll(jobId);
    expect(polled.body).toMatchObject({ jobId, status: 'completed', result: { courseId } });
  });

  it('a job of 0 seconds (PATCH /__admin/tenants/demo/ai) is completed with its course as soon as it is accepted, on a frozen clock too', async () => {
    const jobId = await generate('A course about rope knots', 0);
    const [listed] = await jobsListed();
    expect(listed).toMatchObject({ id: jobId, status: 'completed', courseId: expect.any(Number) });
    expect((await h.v1(`/courses/${listed.courseId}`)).status).toBe(200);
  });

  it('course ids follow completion order, not poll order: the job that finishes first has the lower id, and each keeps it', async () => {
    const slow = await generate('A slow course about fire safety', 30);
    const fast = await generate('A fast course about first aid', 10);
    await advance(60);
    const slowPolled = (await poll(slow)).body;
    const fastPolled = (await poll(fast)).body;
    expect(fastPolled.result.courseId).toBeLessThan(slowPolled.result.courseId);
    await advance(3600);
    expect((await poll(slow)).body).toEqual(slowPolled);
    expect((await poll(fast)).body).toEqual(fastPolled);
  });
});

describe('x-assumed: any key with the write scope may poll any generation job of its tenant, whoever started it (getGenerationJob)', () => {
  it('is stated on the operation, and a job started by ada’s key is read by another user’s write key; a read key is refused (scope write) and a key of another tenant finds no job', async () => {
    const operation = loadBundle('v2').paths['/ai/courses/generate/{jobId}'].get;
    expect(operation['x-assumed']).toMatch(
      /^Any key with the write scope may poll any generation job of its tenant/,
    );

    const jobId = await generate('A course about ladder safety', 20);
    await advance(20);
    const own = await poll(jobId);
    expect(own.status).toBe(200);
    // Max the manager (user 2), not the job's user: the same job, the same answer.
    const other = await h.newKey(2, ['write']);
    expect(await poll(jobId, other.key)).toMatchObject({ status: 200, body: own.body });
    expect(await poll(jobId, READ_KEY)).toMatchObject({
      status: 403,
      body: { code: 'WRITE_SCOPE_REQUIRED' },
    });

    const tenant = await h.admin('/tenants', {
      method: 'POST',
      json: { id: 'acme', mcpAccess: 'full', admin: { name: 'Ann', email: 'ann@acme.example' } },
    });
    expect(tenant.status).toBe(201);
    const acme = await h.admin('/tenants/acme/mcp-keys', {
      method: 'POST',
      json: { userId: 'admin', scopes: ['write'] },
    });
    expect(acme.status).toBe(201);
    expect(await poll(jobId, acme.body.key)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});
