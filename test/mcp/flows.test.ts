// End to end flows over stdio (seed 000 "AI tools", "Authentication",
// "Errors", "Limits"): AI course generation from an uploaded PDF to the finished course, uploads
// refused before anything is sent, 429s retried and reported, a key revoked mid-session, the tenant's
// licence lowered under a running session, and the readable sentences of the other refusals.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_TOOLS,
  admin,
  advanceClock,
  callFails,
  callOk,
  createKey,
  expectMatchesOutputSchema,
  journalMark,
  type Mock,
  minimalPdf,
  READ_TOOLS,
  resetMock,
  START,
  setTenant,
  startMock,
  stdioClient,
  stopAll,
  WRITE_KEY,
  WRITE_TOOLS,
  within,
} from './setup.ts';

const dir = mkdtempSync(join(tmpdir(), 'lmskit-mcp-flows-'));
const pdfPath = join(dir, 'photosynthesis.pdf');
let mock: Mock;

beforeAll(async () => {
  mock = await startMock();
  writeFileSync(
    pdfPath,
    minimalPdf('Photosynthesis turns light into sugar. Chlorophyll absorbs red and blue light.'),
  );
});
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

/** A stdio session of a new key of Ada (admin, user 1) with read and write: its own AI quota. */
async function adaSession() {
  const { key, id } = await createKey(mock.url, 1, ['read', 'write']);
  const session = await stdioClient(mock.url, key);
  return { ...session, key, keyId: id };
}

/** Resolves on the next notifications/tools/list_changed the client receives. */
function nextListChanged(client: Client): Promise<void> {
  return new Promise((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
}

describe('AI course generation, upload to finished course (seed 000 "AI tools", "Generation job")', () => {
  let client: Client;
  beforeAll(async () => {
    await resetMock(mock.url);
    client = (await adaSession()).client;
    expect(await names(client)).toEqual(ALL_TOOLS);
  });

  it('upload_source_material → create_course_from_files (queued) → 60 s later completed → get_course has 6 lessons', async () => {
    const upload = await callOk(client, 'upload_source_material', { filePath: pdfPath });
    expect(upload.filename).toBe('photosynthesis.pdf');
    expect(upload.chunkCount).toBeGreaterThanOrEqual(1);
    expect(upload.sessionId).toEqual(expect.any(String));

    const job = await callOk(client, 'create_course_from_files', {
      prompt: 'A short course on photosynthesis for new lab staff',
      sessionId: upload.sessionId,
    });
    expect(job.status).toBe('queued');
    expect(job.jobId).toEqual(expect.any(String));

    const pending = await callOk(client, 'get_course_generation_status', { jobId: job.jobId });
    expect(pending.status).toBe('queued');
    expect(pending.result ?? null).toBeNull();

    await advanceClock(mock.url, 60);
    const done = await callOk(client, 'get_course_generation_status', { jobId: job.jobId });
    expect(done.status).toBe('completed');
    expect(done.result.courseId).toEqual(expect.any(Number));

    const course = await callOk(client, 'get_course', { courseId: done.result.courseId });
    expect(course.id).toBe(done.result.courseId);
    expect(course.isDraft).toBe(true);
    const lessons = course.structure.elements.filter((e: any) => e.type === 'lesson');
    expect(lessons).toHaveLength(6); // seed 000 "Limits": default module count 6
    // The course is made from the uploaded text.
    expect(lessons.map((l: any) => l.content).join(' ')).toContain('Photosynthesis turns light into sugar');
  });

  it('create_course_from_prompt with moduleCount 3 and a title gives a course of that title with 3 lessons', async () => {
    const job = await callOk(client, 'create_course_from_prompt', {
      prompt: 'Ladder safety for warehouse staff',
      moduleCount: 3,
      title: 'Ladders, safely',
    });
    expect(job.status).toBe('queued');
    await advanceClock(mock.url, 60);
    const done = await callOk(client, 'get_course_generation_status', { jobId: job.jobId });
    expect(done.status).toBe('completed');
    const course = await callOk(client, 'get_course', { courseId: done.result.courseId });
    expect(course.name).toBe('Ladders, safely');
    expect(course.structure.elements.filter((e: any) => e.type === 'lesson')).toHaveLength(3);
  });

  it('a job that fails is reported by get_course_generation_status as failed with its error.message', async () => {
    const failureMessage = 'The generator could not make a course of this prompt.';
    expect(
      (await admin(mock.url, 'PATCH', '/tenants/demo/ai', { failNextJobs: 1, failureMessage })).status,
    ).toBe(200);
    const job = await callOk(client, 'create_course_from_prompt', { prompt: 'Something impossible' });
    expect(job.status).toBe('queued');
    await advanceClock(mock.url, 60);
    const failed = await callOk(client, 'get_course_generation_status', { jobId: job.jobId });
    expect(failed.status).toBe('failed');
    expect(failed.error.message).toBe(failureMessage);
    expect(failed.result ?? null).toBeNull();
  });
});

describe('uploads refused before anything is sent (seed 000 "Upload constraints")', () => {
  let client: Client;
  const uploadsSince = async (mark: Awaited<ReturnType<typeof journalMark>>) =>
    (await mark.since()).filter((e) => e.path.startsWith('/api/v2/chat/source-materials'));

  beforeAll(async () => {
    await resetMock(mock.url);
    client = (await adaSession()).client;
    await names(client);
  });

  it('a relative path is refused', async () => {
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'upload_source_material', { filePath: 'docs/handout.pdf' });
    expect(text).toMatch(/filePath/);
    expect(text).toMatch(/absolute|"\^\/"/);
    expect(await uploadsSince(mark)).toEqual([]);
  });

  it('a missing file is refused, naming the path', async () => {
    const missing = join(dir, 'no-such-file.pdf');
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'upload_source_material', { filePath: missing });
    expect(text).toContain(missing);
    expect(text).toMatch(/no file/i);
    expect(await uploadsSince(mark)).toEqual([]);
  });

  it('a text file renamed .pdf is refused by its content, naming the allowed types', async () => {
    const fake = join(dir, 'notes.pdf');
    writeFileSync(fake, 'These are plain-text notes, not a PDF.\n');
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'upload_source_material', { filePath: fake });
    expect(text).toContain('not a PDF, DOC, DOCX, PNG, JPG, GIF or WebP file');
    expect(await uploadsSince(mark)).toEqual([]);
  });

  it('a file over 20 MB (a sparse 21 MB file) is refused with the limit', async () => {
    const big = join(dir, 'big.pdf');
    writeFileSync(big, '%PDF-1.4\n');
    truncateSync(big, 21 * 1024 * 1024);
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'upload_source_material', { filePath: big });
    expect(text).toMatch(/20 MB/);
    expect(await uploadsSince(mark)).toEqual([]);
  });

  it('a valid upload, by contrast, reaches the mock: one upload and one process request', async () => {
    const mark = await journalMark(mock.url);
    await callOk(client, 'upload_source_material', { filePath: pdfPath });
    expect((await uploadsSince(mark)).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /api/v2/chat/source-materials/upload 201',
      'POST /api/v2/chat/source-materials/process 200',
    ]);
  });
});

describe('429 retried, then reported (seed 000 "Errors": retried with backoff, at most 3 times)', () => {
  let client: Client;
  const fault = (count: number, error: string) =>
    admin(mock.url, 'POST', '/faults', {
      method: 'GET',
      path: '/api/v2/users',
      count,
      status: 429,
      body: { error, code: 'MCP_RATE_LIMITED' },
    });
  const usersCalls = async (mark: Awaited<ReturnType<typeof journalMark>>) =>
    (await mark.since()).filter((e) => e.method === 'GET' && e.path === '/api/v2/users').map((e) => e.status);

  beforeAll(async () => {
    await resetMock(mock.url);
    client = (await adaSession()).client;
    await names(client);
  });
  afterEach(async () => {
    expect((await admin(mock.url, 'DELETE', '/faults')).status).toBe(200);
  });

  it('two 429s ("retry after 1s") are retried and find_user still succeeds', async () => {
    expect((await fault(2, 'Rate limit exceeded, retry after 1s')).status).toBe(201);
    const mark = await journalMark(mock.url);
    const started = Date.now();
    const found = await callOk(client, 'find_user', { query: 'lena' });
    expect(found.users.map((u: any) => u.id)).toEqual([6]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900); // waited the 1 s asked, twice
    expect(await usersCalls(mark)).toEqual([429, 429, 200]);
  });

  it('a lasting 429 is retried 3 times (4 requests), then reported as rate limiting', async () => {
    expect((await fault(10, 'Rate limit exceeded, retry after 1s')).status).toBe(201);
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'find_user', { query: 'lena' });
    expect(text).toMatch(/rate-limit/i);
    expect(text).toContain('retried 3 times');
    expect(text).toContain('retry after 1s');
    expect(await usersCalls(mark)).toEqual([429, 429, 429, 429]);
  });

  it('a 429 asking to wait longer than 30 s is reported at once, not retried', async () => {
    expect((await fault(10, 'Rate limit exceeded, retry after 120s')).status).toBe(201);
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'find_user', { query: 'lena' });
    expect(text).toMatch(/rate-limit/i);
    expect(text).toContain('retry after 120s');
    expect(await usersCalls(mark)).toEqual([429]);
  });
});

describe('a key revoked mid-session (seed 000 "MCP key" states: revoked → 401)', () => {
  beforeAll(async () => {
    await resetMock(mock.url);
  });

  it('the next call is refused with a sentence about the invalid or revoked key, and no tool is offered any more', async () => {
    const session = await adaSession();
    expect(await names(session.client)).toEqual(ALL_TOOLS);
    await callOk(session.client, 'find_user', { query: 'lena' });

    const changed = nextListChanged(session.client);
    const revoked = await admin(mock.url, 'DELETE', `/tenants/demo/mcp-keys/${session.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(Number));

    const text = await callFails(session.client, 'find_user', { query: 'lena' });
    expect(text).toMatch(/key is invalid or revoked/);
    expect(text).toMatch(/administrator/);
    await within(changed, 5000, 'notifications/tools/list_changed');
    expect(await names(session.client)).toEqual([]);
  });
});

describe('the tenant lowered under a running session (seed 000 "Authentication" 4: clamp on every request)', () => {
  let session: Awaited<ReturnType<typeof adaSession>>;
  beforeAll(async () => {
    await resetMock(mock.url);
    session = await adaSession();
    expect(await names(session.client)).toEqual(ALL_TOOLS);
  });
  afterAll(async () => {
    await setTenant(mock.url, { mcpAccess: 'full', mcpAiAccess: true });
  });

  it('`read`: a write call is refused with a sentence, the client is told the list changed, and tools/list gives the read tools', async () => {
    const changed = nextListChanged(session.client);
    await setTenant(mock.url, { mcpAccess: 'read' });
    const text = await callFails(session.client, 'assign_training', { courseId: 5, userId: 7 });
    // What the key may do, and why (the platform's message says: the workspace's access is read), not
    // "may only read now", which read as if it would pass.
    expect(text).toMatch(/may only read \(/);
    expect(text).not.toMatch(/\bnow\b/);
    expect(text).toMatch(/write scope|MCP access to be set to full/);
    await within(changed, 5000, 'notifications/tools/list_changed');
    const listed = await names(session.client);
    expect(listed).toHaveLength(READ_TOOLS.length);
    expect(listed).toEqual(READ_TOOLS);
    // Reading still works.
    await callOk(session.client, 'find_user', { query: 'lena' });
  });

  it('`none`: any call answers "MCP is not enabled on this workspace. Talk to your administrator."', async () => {
    const changed = nextListChanged(session.client);
    await setTenant(mock.url, { mcpAccess: 'none' });
    const text = await callFails(session.client, 'find_user', { query: 'lena' });
    expect(text).toBe('MCP is not enabled on this workspace. Talk to your administrator.');
    await within(changed, 5000, 'notifications/tools/list_changed');
    expect(await names(session.client)).toEqual([]);
  });

  it('`full` again: the same session is offered every tool once its list is read again', async () => {
    await setTenant(mock.url, { mcpAccess: 'full', mcpAiAccess: true });
    await new Promise((r) => setTimeout(r, 1100)); // the stdio server trusts a fetched list for 1 s
    expect(await names(session.client)).toEqual(ALL_TOOLS);
    await callOk(session.client, 'assign_training', { courseId: 5, userId: 7 });
  });
});

describe('readable refusals (seed 000 "Permission identifiers", "Errors", "Limits")', () => {
  beforeAll(async () => {
    await resetMock(mock.url);
  });
  afterAll(async () => {
    await setTenant(mock.url, { mcpAccess: 'full', mcpAiAccess: true });
  });

  it('permission: a learner’s read+write key lists only the tools a learner may use; an unlisted tool is refused with the platform’s reason', async () => {
    const { key } = await createKey(mock.url, 6, ['read', 'write']);
    const { client } = await stdioClient(mock.url, key);
    const listed = await names(client);
    expect(listed).toEqual(['get_course_generation_status', 'list_my_assignments']);
    const mark = await journalMark(mock.url);
    // A tool of the platform not offered to this key: a tool error saying why, as the platform says it.
    const text = await callFails(client, 'find_user', { query: 'ada' });
    expect(text).toMatch(/^find_user is not offered to this key, so it was not called\. /);
    expect(text).toContain("Missing permission user_view: the key's owner (learner) may not do this.");
    // Asked with a request that cannot act (a GET here), never the call itself: only refusals passed.
    const asked = (await mark.since()).filter((e) => e.path !== '/api/v2/mcp/capabilities');
    expect(asked.map((e) => [e.method, e.path, e.status])).toEqual([['GET', '/api/v2/users', 403]]);
    // A tool that does not exist stays a JSON-RPC error (MCP: unknown tool → -32602).
    const error = await client.callTool({ name: 'extend_deadline', arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toMatch(/Unknown tool: extend_deadline/);
    // What it may use works, as the learner.
    const mine = await callOk(client, 'list_my_assignments');
    expect(new Set(mine.assignments.map((a: any) => a.userId))).toEqual(new Set([6]));
  });

  it('scope: a read key calling ban_user is told the platform’s sentence, and no one is banned', async () => {
    const { key } = await createKey(mock.url, 1, ['read']);
    const { client } = await stdioClient(mock.url, key);
    expect(await names(client)).toEqual(READ_TOOLS);
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'ban_user', { userId: 13 });
    expect(text).toMatch(/^ban_user is not offered to this key, so it was not called\. /);
    expect(text).toContain('This call needs the write scope: this key has only the read scope.');
    // The question to the platform carried no user: a body the contract refuses, refused first for the scope.
    const asked = (await mark.since()).filter((e) => e.path === '/api/v2/users/banned');
    expect(asked.map((e) => [e.method, e.status])).toEqual([['POST', 403]]);
    expect((await callOk(client, 'get_user', { userId: 13 })).status).toBe('active');
  });

  it('bulk_assign tries every course: the assigned ones and the refused one with why, in order', async () => {
    const { client } = await adaSession();
    const result = await client.callTool({
      name: 'bulk_assign',
      arguments: { groupId: 3, courseIds: [10, 9999, 11] },
    });
    expect(result.isError).toBeFalsy();
    expectMatchesOutputSchema('bulk_assign', result.structuredContent);
    const { results } = result.structuredContent as { results: Record<string, unknown>[] };
    expect(results.map((r) => [r.courseId, r.outcome])).toEqual([
      [10, 'assigned'],
      [9999, 'refused'],
      [11, 'assigned'],
    ]);
    expect(results[1]).toMatchObject({ error: { status: 404, code: 'NOT_FOUND' } });
    const said = (result.content as { text: string }[]).map((c) => c.text);
    expect(said[1]).toMatch(/^Assigned 2 of 3 courses\. Course 9999 was refused: Not found: /);
    const group = await callOk(client, 'list_assignments', { groupId: 3 });
    const courses = new Set(group.assignments.map((a: any) => a.courseId));
    expect(courses.has(10) && courses.has(11)).toBe(true);
  });

  it('role hierarchy: a manager (user 2) banning the admin (user 1) gets a sentence that the role is not below theirs', async () => {
    const { key } = await createKey(mock.url, 2, ['read', 'write']);
    const { client } = await stdioClient(mock.url, key);
    expect(await names(client)).toContain('ban_user');
    const text = await callFails(client, 'ban_user', { userId: 1 });
    expect(text).toMatch(/role is not below yours/);
    expect((await callOk(client, 'get_user', { userId: 1 })).status).toBe('active');
  });

  it('AI disabled: an AI call is refused with a sentence, and the list drops to the non-AI tools', async () => {
    const { client } = await adaSession();
    expect(await names(client)).toEqual(ALL_TOOLS);
    const changed = nextListChanged(client);
    await setTenant(mock.url, { mcpAiAccess: false });
    try {
      const text = await callFails(client, 'create_course_from_prompt', { prompt: 'Fire drills' });
      expect(text).toMatch(/AI tools are disabled on this workspace/);
      await within(changed, 5000, 'notifications/tools/list_changed');
      expect(await names(client)).toEqual(WRITE_TOOLS);
    } finally {
      await setTenant(mock.url, { mcpAiAccess: true });
    }
  });

  it('daily AI quota: the 6th AI call of a key in a day is refused at once, saying the quota and when it resets', async () => {
    const { client } = await adaSession();
    await names(client);
    for (let i = 1; i <= 5; i++) {
      const job = await callOk(client, 'create_course_from_prompt', { prompt: `Quota course number ${i}` });
      expect(job.status).toBe('queued');
    }
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'create_course_from_prompt', { prompt: 'Quota course number 6' });
    expect(text).toMatch(/daily AI quota/i);
    expect(text).toContain(
      `resets at ${new Date((START + 86_400) * 1000).toISOString().replace('.000Z', 'Z')}`,
    );
    // Not retried: the wait it asks for is hours, not seconds.
    const generate = (await mark.since()).filter((e) => e.path === '/api/v2/ai/courses/generate');
    expect(generate.map((e) => e.status)).toEqual([429]);
    // The quota is per key: another key of the same user still may.
    const other = (await stdioClient(mock.url, WRITE_KEY)).client;
    await names(other);
    expect(
      (await callOk(other, 'create_course_from_prompt', { prompt: 'Quota course, other key' })).status,
    ).toBe('queued');
  });
});
