// In-process HTTP tests of the /api/v2 pipeline, one test per row of seed 000's tables: the limits (seed 000, Limits; Errors: 429): AI quota, list bounds, the per-key rate limit, failed authentication per IP and the default thresholds.
// Shared helpers and the harness: v2-auth-setup.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, READ_KEY, startHarness, WRITE_KEY } from './harness.ts';
import {
  expectError,
  form,
  h,
  iso,
  keyOf,
  nextUtcMidnight,
  PNG,
  type Reply,
  requestFrom,
  reset,
  retryDelay,
  useHarness,
} from './v2-auth-setup.ts';

useHarness();

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

describe('per-key rate limit (seed 000, Errors: 429 MCP_RATE_LIMITED; docs/adr-0002: token bucket per key)', () => {
  let small: Harness;
  beforeAll(async () => {
    // On a stopped wall clock: no token comes back and no failure leaves the window while the test
    // runs, however slowly; the delays it reads are the full ones.
    small = await startHarness('demo', {
      requestsPerMinute: 3,
      failedAuthMax: 3,
      failedAuthWindowSeconds: 300,
      nowMs: () => 0,
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
    // On a stopped wall clock: no token comes back and no failure leaves the window while the test
    // runs, however slowly; the delays it reads are the full ones.
    small = await startHarness('demo', {
      requestsPerMinute: 3,
      failedAuthMax: 3,
      failedAuthWindowSeconds: 300,
      nowMs: () => 0,
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

  it('forgets the failed logins and the rate-limit buckets on a reset, which replaces the platform they counted traffic to (docs/mock.md, admin API)', async () => {
    for (let i = 0; i < 4; i++) await small.v2('/mcp/capabilities', { key: 'wrong' });
    expect((await small.v2('/mcp/capabilities', { key: WRITE_KEY })).status).toBe(429);
    await small.admin('/reset', { method: 'POST', json: {} });
    for (let i = 0; i < 3; i++)
      expect((await small.v2('/mcp/capabilities', { key: READ_KEY })).status).toBe(200);
    expectError(await small.v2('/mcp/capabilities', { key: READ_KEY }), 429, 'MCP_RATE_LIMITED');
    await small.admin('/reset', { method: 'POST', json: {} });
    expect((await small.v2('/mcp/capabilities', { key: READ_KEY })).status).toBe(200);
  });
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
