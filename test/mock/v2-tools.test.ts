// In-process HTTP tests of the /api/v2 endpoints behind the MCP tools: the read tools,
// the write tools with their audit trail, and the AI tools (upload, generation jobs, refinement).
// Auth, licence, errors and limits are in v2-auth-*.test.ts. Every answer is also checked against
// openapi/v2 by the harness: a handler that drifts from the contract fails here with a 500.
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../../conformance/fixtures.ts';
import type { components, operations } from '../../generated/v2.ts';
import { defined, type Harness, ok, startHarness } from './harness.ts';

type V2 = components['schemas'];
type AuditQuery = NonNullable<operations['listAuditLog']['parameters']['query']>;
/** An answer of the untyped helpers (`status`, `body`) or of the typed clients (`response`, `error`). */
type Answer = { status: number; body?: unknown } | { response: Response; error?: unknown };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const reset = async () => {
  expect((await h.api.admin.POST('/reset', { body: {} })).response.status).toBe(200);
};
const demo = () => h.platform.tenant('demo');
const keyOf = async (userId: number) => (await h.newKey(userId, ['read', 'write'])).key;
const advance = (seconds: number) => h.api.admin.POST('/clock/advance', { body: { seconds } });
const ids = (list: { id: number }[]) => list.map((x) => x.id);
const courseIdsOf = (list: V2['AssignmentList']) =>
  list.assignments.map((a) => a.courseId).sort((a, b) => a - b);

// Typed calls of the read tools' endpoints (the demo write key), as the tests below make them.
const findUsers = (query: string) => h.api.v2.GET('/users', { params: { query: { query } } });
const findCourses = (query: string) => h.api.v2.GET('/courses', { params: { query: { query } } });
const getUser = (userId: number) => h.api.v2.GET('/users/{userId}', { params: { path: { userId } } });
const getCourse = (courseId: number) =>
  h.api.v2.GET('/courses/{courseId}', { params: { path: { courseId } } });
const userAssignments = (userId: number) =>
  h.api.v2.GET('/users/{userId}/courses/assignments', { params: { path: { userId } } });
const groupAssignments = (groupId: number) =>
  h.api.v2.GET('/groups/{groupId}/courses/assignments', { params: { path: { groupId } } });
const courseStatistics = (courseId: number, groupId?: number) =>
  h.api.v2.GET('/courses/{courseId}/statistics/users', {
    params: { path: { courseId }, query: { groupId } },
  });
const structureOf = async (courseId: number) => {
  const reply = await getCourse(courseId);
  expect(reply.response.status).toBe(200);
  return ok(reply).structure;
};
const auditLog = async (query: AuditQuery) => ok(await h.api.v2.GET('/audit', { params: { query } }));
const auditOf = (query: AuditQuery = {}) => auditLog({ limit: 250, ...query });

function expectError(reply: Answer, status: number, code: string): void {
  const [actual, body] =
    'response' in reply ? [reply.response.status, reply.error] : [reply.status, reply.body];
  expect({ status: actual, code: (body as { code?: unknown } | undefined)?.code }).toEqual({ status, code });
  expect(Object.keys(body as object).sort()).toEqual(['code', 'error']);
}

// Source files, made here: a minimal valid PDF with one text object, a DOCX (a zip holding
// word/document.xml and [Content_Types].xml, enough for mammoth), and images by their magic bytes.
const pdfWith = minimalPdf;

async function docxWith(text: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

const IMAGES: [string, string, Buffer][] = [
  [
    'PNG',
    'image/png',
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]),
  ],
  ['GIF', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')],
  ['JPEG', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1])],
  [
    'WebP',
    'image/webp',
    Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
  ],
];

/** The typed v2 client with `key`, or with the demo write key when none is given. */
const v2 = (key?: string) => (key === undefined ? h.api.v2 : h.api.v2As(key));
const upload = (data: Buffer, filename: string, init: { sessionId?: string; key?: string } = {}) =>
  v2(init.key).POST('/chat/source-materials/upload', {
    body: { file: new File([new Uint8Array(data)], filename), sessionId: init.sessionId },
    bodySerializer: ({ file, sessionId }) => {
      const form = new FormData();
      form.append('file', file);
      if (sessionId) form.append('sessionId', sessionId);
      return form;
    },
  });
const processUpload = (sessionId: string, fileId: string, key?: string) =>
  v2(key).POST('/chat/source-materials/process', { body: { sessionId, fileId } });
const generate = (body: V2['GenerateCourseRequest'], key: string) =>
  v2(key).POST('/ai/courses/generate', { body });
const jobStatus = (jobId: string, key: string) =>
  v2(key).GET('/ai/courses/generate/{jobId}', { params: { path: { jobId } } });
type Job = V2['GenerationJob'];
/** A job's `result`, which only a completed job has (undefined for the others, as in the answer). */
const resultOf = (job: Job | undefined) => (job && 'result' in job ? job.result : undefined);
/** A job's `error`, which only a failed job has. */
const errorOf = (job: Job | undefined) => (job && 'error' in job ? job.error : undefined);
/** The course a completed job made (the test fails here when the job has no result). */
const courseOf = (job: Job | undefined) => defined(resultOf(job), `the result of job ${job?.jobId}`).courseId;

describe('read tools (seed 000, Read tools)', () => {
  beforeAll(reset);

  it('find_user: matches a case-insensitive substring of the name or of the e-mail, with id, name, e-mail, role and status', async () => {
    const learners = await findUsers('LEARNER');
    expect(learners.response.status).toBe(200);
    expect(ids(ok(learners).users)).toEqual([6, 7, 8, 9, 10, 11, 12, 13]);
    expect(learners.data?.totalCount).toBe(8);
    const byEmail = await findUsers('LENA@DEMO');
    expect(byEmail.data?.users).toEqual([
      {
        id: 6,
        apiId: 'lena',
        name: 'Lena Learner',
        email: 'lena@demo.example',
        role: 'learner',
        status: 'active',
      },
    ]);
    expect(ids(ok(await findUsers('anag')).users)).toEqual([2, 3]);
    const nobody = await findUsers('nobody-at-all');
    expect(nobody.response.status).toBe(200);
    expect(nobody.data).toMatchObject({ users: [], totalCount: 0 });
    expectError(await h.v2('/users'), 400, 'VALIDATION_ERROR');
  });

  it('find_user: finds a user created through the v1 API (docs/adr-0002: one platform state)', async () => {
    const created = await h.api.v1.POST('/users', {
      body: {
        name: 'Quinn Quartermaster',
        email: 'quinn@example.test',
        password: 'correct horse',
        roleAlias: 'author',
      },
    });
    expect(created.response.status).toBe(201);
    const found = await findUsers('quartermaster');
    expect(found.data?.users).toMatchObject([
      { apiId: ok(created).id, email: 'quinn@example.test', role: 'author' },
    ]);
  });

  it('get_user: answers name, e-mail, role, group memberships and status; 404 for an unknown user', async () => {
    const max = await getUser(2);
    expect(max.data).toMatchObject({
      id: 2,
      name: 'Max Manager',
      email: 'max@demo.example',
      role: 'manager',
      status: 'active',
      groups: [
        { id: 1, name: 'Company' },
        { id: 2, name: 'Sales' },
      ],
    });
    expect(ok(await getUser(12)).groups).toEqual([
      { id: 1, name: 'Company' },
      { id: 3, name: 'Engineering' },
      { id: 4, name: 'Backend' },
    ]);
    expectError(await h.v2('/users/9999'), 404, 'NOT_FOUND');
    expectError(await h.v2('/users/lena'), 400, 'VALIDATION_ERROR');
  });

  it('find_course: matches a case-insensitive substring of the name, with id, name, status and annotation', async () => {
    const safety = await findCourses('SAFETY');
    expect(safety.data).toEqual({
      courses: [
        {
          id: 1,
          name: 'Workplace safety',
          status: 'published',
          annotation: 'A short course on workplace safety.',
        },
        { id: 16, name: 'Fire safety', status: 'published', annotation: 'A short course on fire safety.' },
      ],
      totalCount: 2,
    });
    const onboarding = ok(await findCourses('onboarding'));
    expect(onboarding.courses.map((c) => [c.id, c.status])).toEqual([
      [21, 'published'],
      [22, 'published'],
      [23, 'published'],
      [46, 'draft'],
    ]);
  });

  it('get_course: answers name, structure, settings and publish state; a draft has no publishedAt; 404 for an unknown course', async () => {
    const course = ok(await getCourse(1));
    expect(course).toMatchObject({
      id: 1,
      name: 'Workplace safety',
      status: 'published',
      isDraft: false,
      publishedAt: expect.any(Number),
      ownerId: 4,
      settings: { sequential: true, hasCertificate: true, certificateValidDays: 365, passingScore: 60 },
    });
    const { elements, transitions } = course.structure;
    expect(elements.map((e) => e.type)).toEqual(['lesson', 'lesson', 'question']);
    expect(elements[2]).toMatchObject({ questionType: 'single', title: 'Check: Workplace safety' });
    expect(transitions).toEqual([
      { from: elements[0]?.id, to: elements[1]?.id },
      { from: elements[1]?.id, to: elements[2]?.id },
    ]);
    expect((await getCourse(48)).data).toMatchObject({
      status: 'draft',
      isDraft: true,
      publishedAt: null,
    });
    expectError(await h.v2('/courses/9999'), 404, 'NOT_FOUND');
  });

  it("list_assignments: a user's assignments with deadlines and status; 404 for an unknown user", async () => {
    const lena = ok(await userAssignments(6));
    expect(lena.totalCount).toBe(3);
    const byCourse = Object.fromEntries(lena.assignments.map((a) => [a.courseId, a]));
    expect(byCourse[1]).toMatchObject({
      userId: 6,
      courseName: 'Workplace safety',
      status: 'finished',
      resultValue: 92,
    });
    expect(byCourse[3]).toMatchObject({
      status: 'inProgress',
      progressValue: 40,
      deadlineAt: expect.any(Number),
    });
    expect(byCourse[7]).toMatchObject({ status: 'finished', resultValue: 81 });
    expect(ok(await userAssignments(5)).assignments.map((a) => a.courseId)).toEqual([1]);
    expectError(await h.v2('/users/9999/courses/assignments'), 404, 'NOT_FOUND');
  });

  it("list_assignments: a group's assignments, one per member and course; 404 for an unknown group", async () => {
    const sales = await groupAssignments(2);
    expect(sales.response.status).toBe(200);
    const rows = ok(sales).assignments.map((a) => [a.userId, a.courseId, a.status]);
    expect(rows).toEqual([
      [2, 7, 'overdue'],
      [6, 7, 'finished'],
      [7, 7, 'overdue'],
      [8, 7, 'overdue'],
    ]);
    expect(ok(await groupAssignments(1)).totalCount).toBe(13);
    expectError(await h.v2('/groups/99/courses/assignments'), 404, 'NOT_FOUND');
  });

  it("list_my_assignments: the key owner's courses with deadlines and completion status, for any role", async () => {
    const lena = ok(await h.api.v2As(await keyOf(6)).GET('/courses/assigned/me'));
    expect(courseIdsOf(lena)).toEqual([1, 3, 7]);
    expect(lena.assignments.every((a) => a.userId === 6)).toBe(true);
    expect(lena.assignments.find((a) => a.courseId === 3)).toMatchObject({
      status: 'inProgress',
      deadlineAt: expect.any(Number),
    });
    const ada = await h.api.v2.GET('/courses/assigned/me');
    expect(ada.data?.assignments).toMatchObject([{ userId: 1, courseId: 1, status: 'notStarted' }]);
  });

  it('get_compliance_status: assigned, done, overdue and percentages for a course, optionally one group; 404 for an unknown group', async () => {
    expect((await courseStatistics(1)).data).toMatchObject({
      courseId: 1,
      groupId: null,
      assigned: 13,
      done: 3,
      inProgress: 2,
      notStarted: 8,
      overdue: 0,
      donePercent: 23.1,
      overduePercent: 0,
    });
    const sales = ok(await courseStatistics(7, 2));
    expect(sales).toMatchObject({
      groupId: 2,
      assigned: 4,
      done: 1,
      overdue: 3,
      donePercent: 25,
      overduePercent: 75,
    });
    expect(sales.users.map((u) => [u.userId, u.status])).toEqual([
      [2, 'overdue'],
      [6, 'finished'],
      [7, 'overdue'],
      [8, 'overdue'],
    ]);
    expectError(await h.v2('/courses/7/statistics/users?groupId=99'), 404, 'NOT_FOUND');
    expectError(await h.v2('/courses/9999/statistics/users'), 404, 'NOT_FOUND');
  });

  it('get_compliance_status: follows the state — a learner who finishes moves from in progress to done', async () => {
    const before = ok(await courseStatistics(1));
    await h.admin('/tenants/demo/users/8/courses/1/progress', {
      method: 'POST',
      json: { action: 'finish', resultValue: 70 },
    });
    const after = ok(await courseStatistics(1));
    expect(after).toMatchObject({ done: before.done + 1, inProgress: before.inProgress - 1 });
    expect(after.users.find((u) => u.userId === 8)).toMatchObject({
      status: 'finished',
      resultValue: 70,
    });
  });

  it('list_certificates: certificates with issue dates and, when the course sets one, an expiry date', async () => {
    const certificates = async (userId: number) =>
      ok(await h.api.v2.GET('/users/{userId}/certificates', { params: { path: { userId } } })).certificates;
    const lena = await certificates(6);
    expect(lena.map((c) => c.courseId)).toEqual([1, 7]);
    // Courses 1 and 7 issue certificates valid for 365 days.
    for (const c of lena) expect(c.expiresAt).toBe(c.issuedAt + 365 * 86_400);
    const lara = await certificates(10);
    expect(lara).toEqual([]);
    // Course 4 issues certificates without expiry.
    const anti = (await certificates(8)).find((c) => c.courseId === 4);
    expect(anti).toMatchObject({
      courseName: 'Anti-bribery and corruption',
      issuedAt: expect.any(Number),
      expiresAt: null,
    });
    expectError(await h.v2('/users/9999/certificates'), 404, 'NOT_FOUND');
  });

  it.each<V2['StatisticsScope']>([
    'overview',
    'publishing',
    'courseCreation',
    'activity',
    'insights',
    'tags',
  ])('get_statistics: answers the %s scope with its metrics, computed now', async (scope) => {
    const answer = await h.api.v2.GET('/statistics/{scope}', { params: { path: { scope } } });
    expect(answer.response.status).toBe(200);
    const body = ok(answer);
    expect(body).toMatchObject({ scope, generatedAt: h.platform.now() });
    expect(Object.keys(body.metrics).length).toBeGreaterThan(0);
    for (const value of Object.values(body.metrics)) expect(value).toEqual(expect.any(Number));
  });

  it('get_statistics: the figures are the platform state, and an unknown scope is refused 400', async () => {
    const metrics = async (scope: V2['StatisticsScope']) =>
      ok(await h.api.v2.GET('/statistics/{scope}', { params: { path: { scope } } })).metrics;
    const overview = await metrics('overview');
    expect(overview).toMatchObject({ coursesTotal: 48, coursesPublished: 45 });
    expect(overview.usersTotal).toBe(demo().users.size);
    expect(await metrics('publishing')).toMatchObject({
      coursesPublished: 45,
      coursesDraft: 3,
    });
    expectError(await h.v2('/statistics/everything'), 400, 'VALIDATION_ERROR');
  });

  it('get_leaderboard: top learners by completion, with points, best first', async () => {
    const { leaders } = ok(await h.api.v2.GET('/statistics/leaders'));
    expect(leaders[0]).toEqual({
      rank: 1,
      user: { id: 6, name: 'Lena Learner', email: 'lena@demo.example' },
      points: 173,
      coursesCompleted: 2,
      averageResult: 87,
    });
    const completed = leaders.map((l) => l.coursesCompleted);
    expect(completed).toEqual([...completed].sort((a, b) => b - a));
    expect(leaders.map((l) => l.rank)).toEqual(leaders.map((_, i) => i + 1));
  });

  it('get_audit_log: newest first, filtered by fields[author] and paged by limit and offset', async () => {
    await h.v2('/users/banned', { method: 'POST', json: { userId: 13 } });
    await h.v2('/users/banned/13', { method: 'DELETE' });
    const mine = await auditLog({ 'fields[author]': 1 });
    expect(mine.entries.map((e) => e.action)).toEqual(['user.unban', 'user.ban']);
    expect(mine.entries.every((e) => e.author?.id === 1)).toBe(true);
    const all = await auditOf();
    expect(all.entries[0]?.action).toBe('user.unban');
    const idsInOrder = all.entries.map((e) => e.id);
    expect(idsInOrder).toEqual([...idsInOrder].sort((a, b) => b - a));
    const page = await auditLog({ limit: 5, offset: 3 });
    expect(page).toMatchObject({ limit: 5, offset: 3, totalCount: all.totalCount });
    expect(page.entries.map((e) => e.id)).toEqual(idsInOrder.slice(3, 8));
    expect((await auditLog({ offset: all.totalCount })).entries).toEqual([]);
  });

  it('get_audit_log: fields[createdAt][from] and [to] take an ISO date-time or YYYY-MM-DD, inclusive; a YYYY-MM-DD end means the whole day', async () => {
    // The seed's history is in December 2025; the clock starts at 2026-01-01T00:00:00Z.
    const total = (await auditOf()).totalCount;
    await advance(12 * 3600);
    await h.v2('/users/banned', { method: 'POST', json: { userId: 12 } });
    const newYear = (await auditOf({ 'fields[createdAt][from]': '2026-01-01' })).entries;
    expect(newYear.length).toBeGreaterThan(0);
    expect(newYear.every((e) => e.createdAt >= 1_767_225_600)).toBe(true);
    expect(newYear[0]).toMatchObject({ action: 'user.ban', target: { type: 'user', id: 'lily' } });
    const oldYear = await auditOf({ 'fields[createdAt][to]': '2025-12-31' });
    expect(oldYear.totalCount + newYear.length).toBe(total + 1);
    expect(oldYear.entries.every((e) => e.createdAt < 1_767_225_600)).toBe(true);
    expect((await auditOf({ 'fields[createdAt][to]': '2026-01-01' })).entries[0]?.action).toBe('user.ban');
    const morning = await auditOf({
      'fields[createdAt][from]': '2026-01-01T00:00:00Z',
      'fields[createdAt][to]': '2026-01-01T06:00:00Z',
    });
    const lilyBanned = (entries: V2['AuditEntry'][]) =>
      entries.some((e) => e.action === 'user.ban' && e.target.id === 'lily');
    expect(lilyBanned(morning.entries)).toBe(false);
    expect(morning.totalCount).toBeGreaterThan(0);
    const withOffset = await auditOf({ 'fields[createdAt][from]': '2026-01-01T13:00:00+01:00' });
    expect(withOffset.entries.map((e) => [e.action, e.target.id])).toEqual([['user.ban', 'lily']]);
    expectError(await h.v2('/audit?fields[createdAt][from]=yesterday'), 400, 'VALIDATION_ERROR');
    await h.v2('/users/banned/12', { method: 'DELETE' });
  });
});

describe('write tools (seed 000, Write tools)', () => {
  beforeAll(reset);

  const assignUser = (courseId: number, body: V2['AssignUserRequest']) =>
    h.api.v2.POST('/courses/{courseId}/assignments/users', { params: { path: { courseId } }, body });

  it('assign_training: assigns a user with deadline and start; the assignment shows in both APIs', async () => {
    const deadlineAt = h.platform.now() + 14 * 86_400;
    const startAt = h.platform.now() + 86_400;
    const reply = await assignUser(10, { userId: 13, deadlineAt, startAt });
    expect(reply.response.status).toBe(200);
    expect(reply.data).toMatchObject({
      assigned: true,
      assignment: {
        courseId: 10,
        userId: 13,
        userName: 'Lars Learner',
        deadlineAt,
        startAt,
        status: 'notStarted',
      },
    });
    expect(ok(await userAssignments(13)).assignments.map((a) => a.courseId)).toContain(10);
    const v1 = ok(
      await h.api.v1.GET('/users/{userId}/assignments', { params: { path: { userId: 'lars' } } }),
    );
    expect(v1.assignments.find((a) => a.course.id === 10)).toMatchObject({ deadlineAt });
  });

  it('assign_training: is idempotent — assigning again answers assigned:false and changes nothing', async () => {
    const deadlineAt = h.platform.now() + 7 * 86_400;
    expect(ok(await assignUser(11, { userId: 13, deadlineAt })).assigned).toBe(true);
    const before = ok(await userAssignments(13));
    const audit = (await auditOf()).totalCount;
    const again = await assignUser(11, { userId: 13, deadlineAt: deadlineAt + 86_400 });
    expect(again.response.status).toBe(200);
    expect(again.data).toMatchObject({ assigned: false, assignment: { courseId: 11, deadlineAt } });
    expect((await userAssignments(13)).data).toMatchObject(before);
    expect((await auditOf()).totalCount).toBe(audit);
  });

  it('assign_training: answers 404 for an unknown course or user', async () => {
    expectError(
      await h.v2('/courses/9999/assignments/users', { method: 'POST', json: { userId: 13 } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await h.v2('/courses/10/assignments/users', { method: 'POST', json: { userId: 9999 } }),
      404,
      'NOT_FOUND',
    );
  });

  it('assign_training: refuses a banned user with a documented error and assigns nothing', async () => {
    await h.v2('/users/banned', { method: 'POST', json: { userId: 11 } });
    const reply = await h.v2('/courses/12/assignments/users', { method: 'POST', json: { userId: 11 } });
    await h.v2('/users/banned/11', { method: 'DELETE' });
    expectError(reply, 422, 'USER_BANNED');
    expect(
      demo()
        .assignmentsOfUser(11)
        .map((a) => a.courseId),
    ).not.toContain(12);
  });

  it('bulk_assign: assigns a course to every member of the group, with one deadline', async () => {
    const deadlineAt = h.platform.now() + 30 * 86_400;
    const reply = await h.api.v2.POST('/courses/{courseId}/assignments', {
      params: { path: { courseId: 13 } },
      body: { groups: [4], deadlineAt },
    });
    expect(reply.data).toEqual({
      courseId: 13,
      groups: [{ id: 4, name: 'Backend', usersCount: 2 }],
      usersAssigned: 2,
      bannedSkipped: 0,
    });
    const backend = ok(await groupAssignments(4));
    expect(backend.assignments.map((a) => [a.userId, a.courseId, a.deadlineAt])).toEqual([
      [11, 13, deadlineAt],
      [12, 13, deadlineAt],
    ]);
    expectError(
      await h.v2('/courses/13/assignments', { method: 'POST', json: { groups: [99] } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await h.v2('/courses/13/assignments', { method: 'POST', json: { groups: [] } }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it("assign_chain: the owner assigns the chain's courses to users and groups, with one deadline for the whole chain", async () => {
    const deadlineAt = h.platform.now() + 60 * 86_400;
    const reply = await h.api.v2.POST('/courseChains/{chainId}/assign', {
      params: { path: { chainId: 1 } },
      body: { users: [10], groups: [4], deadlineAt },
    });
    expect(reply.data).toEqual({ chainId: 1, courseIds: [21, 22, 23], users: [10], groups: [4], deadlineAt });
    for (const userId of [10, 11, 12]) {
      const rows = ok(await userAssignments(userId)).assignments.filter((a) =>
        [21, 22, 23].includes(a.courseId),
      );
      expect(rows.map((a) => [a.courseId, a.deadlineAt])).toEqual([
        [21, deadlineAt],
        [22, deadlineAt],
        [23, deadlineAt],
      ]);
    }
  });

  it('assign_chain: takes groups alone, refuses a body with neither users nor groups 400, and an unknown chain 404', async () => {
    const reply = await h.api.v2.POST('/courseChains/{chainId}/assign', {
      params: { path: { chainId: 1 } },
      body: { groups: [3] },
    });
    expect(reply.data).toMatchObject({ users: [], groups: [3], deadlineAt: null });
    expect(courseIdsOf(ok(await userAssignments(9)))).toEqual(expect.arrayContaining([21, 22, 23]));
    expectError(await h.v2('/courseChains/1/assign', { method: 'POST', json: {} }), 400, 'VALIDATION_ERROR');
    expectError(
      await h.v2('/courseChains/99/assign', { method: 'POST', json: { users: [10] } }),
      404,
      'NOT_FOUND',
    );
  });

  it('ban_user and unban_user: ban revokes access and keeps history; unban restores it (both APIs see it)', async () => {
    const lars = await keyOf(13);
    const history = (await userAssignments(13)).data;
    const banned = await h.api.v2.POST('/users/banned', { body: { userId: 13 } });
    expect(banned.response.status).toBe(200);
    expect(banned.data).toMatchObject({ userId: 13, status: 'banned' });
    expect(ok(await getUser(13)).status).toBe('banned');
    expect(demo().users.get(13)?.isBanned).toBe(true);
    expect((await h.v2('/courses/assigned/me', { key: lars })).status).toBe(401);
    expect((await userAssignments(13)).data).toEqual(history);
    const unbanned = await h.api.v2.DELETE('/users/banned/{userId}', { params: { path: { userId: 13 } } });
    expect(unbanned.response.status).toBe(200);
    expect(unbanned.data).toMatchObject({ userId: 13, status: 'active' });
    expect(ok(await getUser(13)).status).toBe('active');
    expect((await h.v2('/courses/assigned/me', { key: lars })).status).toBe(200);
  });

  it('ban_user: refuses an expert 422 USER_IS_EXPERT and an unknown user 404; nobody is banned', async () => {
    expectError(await h.v2('/users/banned', { method: 'POST', json: { userId: 5 } }), 422, 'USER_IS_EXPERT');
    expect(ok(await getUser(5)).status).toBe('active');
    expectError(await h.v2('/users/banned', { method: 'POST', json: { userId: 9999 } }), 404, 'NOT_FOUND');
    expectError(await h.v2('/users/banned/9999', { method: 'DELETE' }), 404, 'NOT_FOUND');
  });

  it('change_user_email: changes the address everywhere and records the notification in the audit log', async () => {
    const reply = await h.api.v2.POST('/users/{userId}/email/change', {
      params: { path: { userId: 9 } },
      body: { email: 'leo.new@example.test' },
    });
    expect(reply.response.status).toBe(200);
    expect(reply.data).toMatchObject({ userId: 9, email: 'leo.new@example.test', notificationSent: true });
    expect(ok(await getUser(9)).email).toBe('leo.new@example.test');
    expect(ids(ok(await findUsers('leo.new@')).users)).toEqual([9]);
    expect((await findUsers('leo@demo')).data?.users).toEqual([]);
    const entry = (await auditOf({ 'fields[author]': 1 })).entries[0];
    expect(entry).toMatchObject({
      action: 'user.email.change',
      author: { id: 1, name: 'Ada Admin' },
      details: { from: 'leo@demo.example', to: 'leo.new@example.test', notificationSent: true },
    });
  });

  it('change_user_email: refuses an address another user holds 409 EMAIL_TAKEN, case-insensitively, and an invalid one 400', async () => {
    expectError(
      await h.v2('/users/10/email/change', { method: 'POST', json: { email: 'MAX@demo.example' } }),
      409,
      'EMAIL_TAKEN',
    );
    expectError(
      await h.v2('/users/10/email/change', { method: 'POST', json: { email: 'not-an-email' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(ok(await getUser(10)).email).toBe('lara@demo.example');
  });

  it('clone_course: creates an unpublished copy with the same structure; the source stays as it was', async () => {
    const source = ok(await getCourse(1));
    const reply = await h.api.v2.POST('/courses/clone', { body: { courseId: 1 } });
    expect(reply.response.status).toBe(201);
    const clone = ok(reply);
    expect(clone).toMatchObject({ status: 'draft', sourceCourseId: 1, annotation: source.annotation });
    expect(clone.id).not.toBe(1);
    const copy = ok(await getCourse(clone.id));
    expect(copy).toMatchObject({
      isDraft: true,
      status: 'draft',
      publishedAt: null,
      settings: source.settings,
    });
    const shape = (s: V2['CourseStructure']) => s.elements.map((e) => [e.type, e.title]);
    expect(shape(copy.structure)).toEqual(shape(source.structure));
    expect((await getCourse(1)).data).toEqual(source);
    expect(
      (await h.api.v1.GET('/courses/{courseId}', { params: { path: { courseId: clone.id } } })).data,
    ).toMatchObject({ isDraft: true });
    expectError(await h.v2('/courses/clone', { method: 'POST', json: { courseId: 9999 } }), 404, 'NOT_FOUND');
  });
});

describe('audit log of writes (docs/adr-0002: every write through either API appends an entry)', () => {
  beforeAll(reset);

  let n = 0;
  type WriteCase = [tool: string, method: string, path: string, json: () => unknown, action: string];
  it.each<WriteCase>([
    ['assign_training', 'POST', '/courses/30/assignments/users', () => ({ userId: 12 }), 'course.assign'],
    ['bulk_assign', 'POST', '/courses/31/assignments', () => ({ groups: [3] }), 'course.assign.groups'],
    ['assign_chain', 'POST', '/courseChains/1/assign', () => ({ users: [12] }), 'chain.assign'],
    ['ban_user', 'POST', '/users/banned', () => ({ userId: 12 }), 'user.ban'],
    ['unban_user', 'DELETE', '/users/banned/12', () => undefined, 'user.unban'],
    [
      'change_user_email',
      'POST',
      '/users/12/email/change',
      () => ({ email: `lily.${++n}@example.test` }),
      'user.email.change',
    ],
    ['clone_course', 'POST', '/courses/clone', () => ({ courseId: 3 }), 'course.clone'],
    [
      'create_course_from_prompt',
      'POST',
      '/ai/courses/generate',
      () => ({ prompt: 'A course about ladders' }),
      'course.generate',
    ],
    ['refine_course', 'POST', '/ai/courses/3/refine', () => ({ feedback: 'ladders' }), 'course.refine'],
    ['regenerate_lesson', 'POST', '/ai/lessons/1/regenerate', () => ({}), 'lesson.regenerate'],
  ])('%s appends one entry whose author is the key owner', async (_tool, method, path, json, action) => {
    const key = await keyOf(1);
    const before = (await auditOf()).totalCount;
    const body = json();
    const reply = await h.v2(path, { method, key, ...(body === undefined ? {} : { json: body }) });
    expect(reply.status).toBeLessThan(300);
    const after = await auditOf();
    expect(after.totalCount).toBe(before + 1);
    expect(after.entries[0]).toMatchObject({ action, author: { id: 1, name: 'Ada Admin' } });
  });

  it("records a manager's write with the manager as author, found by fields[author]", async () => {
    const max = await keyOf(2);
    await h.v2('/users/banned', { method: 'POST', json: { userId: 13 }, key: max });
    const entries = (await auditOf({ 'fields[author]': 2 })).entries;
    expect(entries).toMatchObject([
      { action: 'user.ban', author: { id: 2, name: 'Max Manager' }, target: { id: 'lars' } },
    ]);
    await h.v2('/users/banned/13', { method: 'DELETE', key: max });
  });

  it('shows a v1 write in the v2 audit log with author null, and fields[author] leaves it out', async () => {
    const created = await h.api.v1.POST('/users', {
      body: {
        name: 'Vera Vone',
        email: 'vera@example.test',
        password: 'correct horse',
        roleAlias: 'learner',
      },
    });
    expect(created.response.status).toBe(201);
    const newest = defined((await auditOf()).entries[0], 'an audit entry');
    expect(newest).toMatchObject({
      action: 'user.create',
      author: null,
      target: { type: 'user', id: ok(created).id },
    });
    const byAda = (await auditOf({ 'fields[author]': 1 })).entries;
    expect(byAda.map((e) => e.id)).not.toContain(newest.id);
  });
});

describe('AI tools (seed 000, AI tools; Generation job)', () => {
  beforeAll(reset);

  it('upload_source_material: takes a PDF, tells its type by content, and processing extracts its text into chunks', async () => {
    const key = await keyOf(1);
    const stored = await upload(
      pdfWith('Photosynthesis turns light into sugar in green leaves'),
      'biology.pdf',
      {
        key,
      },
    );
    expect(stored.response.status).toBe(201);
    const uploaded = ok(stored);
    expect(uploaded).toMatchObject({
      filename: 'biology.pdf',
      mimeType: 'application/pdf',
      sessionId: expect.any(String),
    });
    const answer = await processUpload(uploaded.sessionId, uploaded.fileId, key);
    expect(answer.response.status).toBe(200);
    const processed = ok(answer);
    expect(processed).toMatchObject({
      sessionId: uploaded.sessionId,
      filename: 'biology.pdf',
      message: expect.any(String),
    });
    expect(processed.chunkCount).toBeGreaterThan(0);
    const file = demo().uploads.get(uploaded.sessionId)?.files[0];
    expect(file?.chunks.join(' ')).toContain('Photosynthesis turns light into sugar');
  });

  it('upload_source_material: takes a DOCX, whose text mammoth extracts', async () => {
    const key = await keyOf(1);
    const uploaded = ok(
      await upload(await docxWith('Volcanoes release gas and molten rock from below.'), 'geo.docx', { key }),
    );
    expect(uploaded.mimeType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const processed = ok(await processUpload(uploaded.sessionId, uploaded.fileId, key));
    expect(processed.chunkCount).toBeGreaterThan(0);
    expect(demo().uploads.get(uploaded.sessionId)?.files[0]?.chunks.join(' ')).toContain(
      'Volcanoes release gas',
    );
  });

  it.each(IMAGES)(
    'upload_source_material: takes a %s image by its magic bytes, whatever its name; it holds no text',
    async (_kind, mimeType, data) => {
      const key = await keyOf(1);
      const stored = await upload(data, 'picture.bin', { key });
      expect(stored.response.status).toBe(201);
      const uploaded = ok(stored);
      expect(uploaded).toMatchObject({ mimeType, size: data.length });
      const processed = ok(await processUpload(uploaded.sessionId, uploaded.fileId, key));
      expect(processed.chunkCount).toBe(0);
    },
  );

  it('upload_source_material: reuses a given sessionId to bundle files, and generates one when omitted', async () => {
    const key = await keyOf(1);
    const first = ok(await upload(pdfWith('Tides follow the moon around the earth'), 'tides.pdf', { key }));
    const second = ok(
      await upload(IMAGES[0]?.[2] ?? Buffer.alloc(0), 'chart.png', { key, sessionId: first.sessionId }),
    );
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.fileId).not.toBe(first.fileId);
    const third = ok(await upload(pdfWith('Another subject entirely here'), 'other.pdf', { key }));
    expect(third.sessionId).not.toBe(first.sessionId);
    expect(
      demo()
        .uploads.get(first.sessionId)
        ?.files.map((f) => f.filename),
    ).toEqual(['tides.pdf', 'chart.png']);
  });

  it('upload_source_material: refuses a text file named .pdf 415 UNSUPPORTED_FILE_TYPE, and a body that is not multipart 400', async () => {
    const sessions = demo().uploads.size;
    expectError(
      await upload(Buffer.from('just some notes, not a PDF'), 'notes.pdf'),
      415,
      'UNSUPPORTED_FILE_TYPE',
    );
    expectError(
      await h.v2('/chat/source-materials/upload', { method: 'POST', json: { file: 'abc' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(demo().uploads.size).toBe(sessions);
  });

  it('upload_source_material: refuses a file over 20 MB 413 FILE_TOO_LARGE and records nothing', async () => {
    const sessions = demo().uploads.size;
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20);
    pdfWith('big').copy(big);
    expectError(await upload(big, 'big.pdf'), 413, 'FILE_TOO_LARGE');
    expect(demo().uploads.size).toBe(sessions);
  });

  it('upload_source_material: processing an unknown file answers 404', async () => {
    expectError(await processUpload('ses_nope', 'file_nope'), 404, 'NOT_FOUND');
  });

  it('create_course_from_prompt: answers 202 {jobId, status queued, message}; the job stays queued until its 10–30 s have passed, then completes with a draft course of 6 modules', async () => {
    const key = await keyOf(1);
    const accepted = await generate({ prompt: 'Create a course about ladder safety' }, key);
    expect(accepted.response.status).toBe(202);
    expect(accepted.data).toEqual({
      jobId: expect.any(String),
      status: 'queued',
      message: expect.any(String),
    });
    const { jobId } = ok(accepted);
    const courses = demo().courses.size;
    await advance(9);
    expect((await jobStatus(jobId, key)).data).toMatchObject({ jobId, status: 'queued' });
    expect(resultOf((await jobStatus(jobId, key)).data)).toBeUndefined();
    expect(demo().courses.size).toBe(courses);
    await advance(21);
    const done = await jobStatus(jobId, key);
    expect(done.data).toMatchObject({ jobId, status: 'completed', result: { courseId: expect.any(Number) } });
    const course = ok(await getCourse(courseOf(done.data)));
    expect(course).toMatchObject({
      name: 'Ladder safety',
      status: 'draft',
      isDraft: true,
      publishedAt: null,
      ownerId: 1,
    });
    const lessons = course.structure.elements.filter((e) => e.type === 'lesson');
    expect(lessons).toHaveLength(6);
    expect(lessons.every((l) => l.content.length > 0)).toBe(true);
    // Polling again answers the same final state.
    expect((await jobStatus(jobId, key)).data).toEqual(done.data);
  });

  it('create_course_from_prompt: honours the module count and the title options', async () => {
    const key = await keyOf(1);
    const { jobId } = ok(
      await generate(
        {
          prompt: 'A course about rope knots',
          options: { moduleCount: 3, title: 'Knots 101', language: 'en' },
        },
        key,
      ),
    );
    await advance(30);
    const courseId = courseOf((await jobStatus(jobId, key)).data);
    const course = ok(await getCourse(courseId));
    expect(course.name).toBe('Knots 101');
    expect(course.language).toBe('en');
    expect(course.structure.elements.filter((e) => e.type === 'lesson')).toHaveLength(3);
    // Out of the contract's bounds on purpose: sent untyped.
    expectError(
      await h.v2('/ai/courses/generate', {
        method: 'POST',
        json: { prompt: 'x', options: { moduleCount: 0 } },
        key,
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it("create_course_from_prompt: without the language option the course takes the prompt's language (seed 000: default the language of the prompt)", async () => {
    const key = await keyOf(1);
    const { jobId } = ok(
      await generate({ prompt: 'Erstelle einen Kurs über die Sicherheit und das Verhalten bei Feuer' }, key),
    );
    await advance(30);
    const courseId = courseOf((await jobStatus(jobId, key)).data);
    expect(ok(await getCourse(courseId)).language).toBe('de');
  });

  it('create_course_from_files: generates from the uploaded text of the session; an unknown session answers 404', async () => {
    const key = await keyOf(1);
    const uploaded = ok(
      await upload(pdfWith('Photosynthesis turns light into sugar in green leaves'), 'bio.pdf', { key }),
    );
    await processUpload(uploaded.sessionId, uploaded.fileId, key);
    const accepted = await generate(
      { prompt: 'A course about photosynthesis', sessionId: uploaded.sessionId },
      key,
    );
    expect(accepted.response.status).toBe(202);
    expect(accepted.data).toMatchObject({ status: 'queued' });
    await advance(30);
    const courseId = courseOf((await jobStatus(ok(accepted).jobId, key)).data);
    const course = ok(await getCourse(courseId));
    const lessons = course.structure.elements.filter((e) => e.type === 'lesson');
    expect(lessons).toHaveLength(6);
    expect(lessons[0]?.content).toContain('Photosynthesis turns light into sugar');
    expectError(await generate({ prompt: 'A course', sessionId: 'ses_nope' }, key), 404, 'NOT_FOUND');
  });

  it('get_course_generation_status: a job that fails answers status failed with error.message and makes no course', async () => {
    const key = await keyOf(1);
    // Failure is injected straight into the tenant's AI settings (the test needs nothing more from the admin API).
    demo().ai.failNextJobs = 1;
    const { jobId } = ok(await generate({ prompt: 'A course about nothing in particular' }, key));
    const courses = demo().courses.size;
    await advance(30);
    const failed = await jobStatus(jobId, key);
    expect(failed.data).toMatchObject({ jobId, status: 'failed', error: { message: expect.any(String) } });
    expect(errorOf(failed.data)?.message.length).toBeGreaterThan(0);
    expect(resultOf(failed.data)).toBeUndefined();
    expect(demo().courses.size).toBe(courses);
    // Only the next job was meant to fail.
    const next = ok(await generate({ prompt: 'A course about something' }, key)).jobId;
    await advance(30);
    expect((await jobStatus(next, key)).data?.status).toBe('completed');
    expectError(await jobStatus('job_nope', key), 404, 'NOT_FOUND');
  });

  it('refine_course: appends elements and transitions, never changing or removing existing ones', async () => {
    const key = await keyOf(1);
    const before = await structureOf(1);
    const reply = await v2(key).POST('/ai/courses/{courseId}/refine', {
      params: { path: { courseId: 1 } },
      body: { feedback: 'Add a lesson on ladders' },
    });
    expect(reply.response.status).toBe(200);
    const refined = ok(reply);
    expect(refined).toMatchObject({
      courseId: 1,
      elementsAdded: expect.any(Number),
      transitionsAdded: expect.any(Number),
    });
    expect(refined.elementsAdded).toBeGreaterThan(0);
    const after = await structureOf(1);
    expect(after.elements.slice(0, before.elements.length)).toEqual(before.elements);
    expect(after.transitions.slice(0, before.transitions.length)).toEqual(before.transitions);
    expect(after.elements).toHaveLength(before.elements.length + refined.elementsAdded);
    expect(after.transitions).toHaveLength(before.transitions.length + refined.transitionsAdded);
    // The new part hangs off the old end of the course.
    const added = after.transitions.slice(before.transitions.length);
    expect(added[0]?.from).toBe(defined(before.elements.at(-1), 'a last element').id);
    expectError(
      await h.v2('/ai/courses/9999/refine', { method: 'POST', json: { feedback: 'x' }, key }),
      404,
      'NOT_FOUND',
    );
  });

  it('regenerate_question: rewords a single-choice question (still one correct option) and keeps the old text and options in the audit log', async () => {
    const key = await keyOf(1);
    const question = defined(
      (await structureOf(2)).elements.find((e) => e.type === 'question'),
      'a question in course 2',
    );
    const reply = await v2(key).POST('/ai/questions/{questionId}/regenerate', {
      params: { path: { questionId: question.id } },
      body: { feedback: 'Make the wrong answers more plausible.' },
    });
    expect(reply.response.status).toBe(200);
    const regenerated = ok(reply);
    expect(regenerated).toMatchObject({
      questionId: question.id,
      text: expect.any(String),
      message: expect.any(String),
    });
    expect(regenerated.text).not.toBe(question.title);
    expect(regenerated.options.filter((o) => o.isCorrect)).toHaveLength(1);
    const now = (await structureOf(2)).elements.find((e) => e.id === question.id);
    expect(now).toMatchObject({
      title: regenerated.text,
      options: regenerated.options,
      questionType: 'single',
    });
    const entry = (await auditOf({ 'fields[author]': 1 })).entries.find(
      (e) => e.action === 'question.regenerate',
    );
    expect(entry).toMatchObject({
      target: { type: 'question', id: String(question.id) },
      details: { previous: { text: question.title, options: question.options } },
    });
  });

  it('regenerate_question: refuses a multiple-choice question 422 QUESTION_NOT_SINGLE_CHOICE and changes nothing', async () => {
    const key = await keyOf(1);
    // The seed has single-choice questions only: make one multiple-choice straight in the state.
    const element = demo()
      .courses.get(4)
      ?.structure.elements.find((e) => e.type === 'question');
    if (element?.type !== 'question') throw new Error('course 4 has no question');
    element.questionType = 'multiple';
    element.options = element.options.map((o) => ({ ...o, isCorrect: true }));
    const before = await structureOf(4);
    expectError(
      await h.v2(`/ai/questions/${element.id}/regenerate`, { method: 'POST', json: {}, key }),
      422,
      'QUESTION_NOT_SINGLE_CHOICE',
    );
    expect(await structureOf(4)).toEqual(before);
    const lesson = defined(
      before.elements.find((e) => e.type === 'lesson'),
      'a lesson in course 4',
    );
    expectError(
      await h.v2(`/ai/questions/${lesson.id}/regenerate`, { method: 'POST', json: {}, key }),
      404,
      'NOT_FOUND',
    );
  });

  it('regenerate_question: the demo has a multiple-choice question (course 48), and it is refused 422 and left as it was', async () => {
    // Seed 000, regenerate_question: "single-choice questions only" — seen from outside on the demo.
    const key = await keyOf(1);
    const before = await structureOf(48);
    const question = defined(
      before.elements.find((e) => e.type === 'question'),
      'a question in course 48',
    );
    expect(question).toMatchObject({ questionType: 'multiple' });
    expect(question.options.filter((o) => o.isCorrect)).toHaveLength(2);
    expectError(
      await h.v2(`/ai/questions/${question.id}/regenerate`, { method: 'POST', json: {}, key }),
      422,
      'QUESTION_NOT_SINGLE_CHOICE',
    );
    expect(await structureOf(48)).toEqual(before);
  });

  it('regenerate_lesson: answers a brief (topic, title, description, keyPoints, targetAudience) and leaves the lesson untouched', async () => {
    const key = await keyOf(1);
    const before = await structureOf(5);
    const lesson = defined(
      before.elements.find((e) => e.type === 'lesson'),
      'a lesson in course 5',
    );
    const reply = await v2(key).POST('/ai/lessons/{lessonId}/regenerate', {
      params: { path: { lessonId: lesson.id } },
      body: { feedback: 'shorter' },
    });
    expect(reply.response.status).toBe(200);
    expect(reply.data).toEqual({
      lessonId: lesson.id,
      brief: {
        topic: expect.any(String),
        title: expect.any(String),
        description: expect.any(String),
        keyPoints: expect.any(Array),
        targetAudience: expect.any(String),
      },
    });
    expect(ok(reply).brief.keyPoints.length).toBeGreaterThan(0);
    expect(await structureOf(5)).toEqual(before);
    const question = defined(
      before.elements.find((e) => e.type === 'question'),
      'a question in course 5',
    );
    expectError(
      await h.v2(`/ai/lessons/${question.id}/regenerate`, { method: 'POST', json: {}, key }),
      404,
      'NOT_FOUND',
    );
  });
});
