// v2, stateful (seed 000, "Write tools" and "AI tools"), run only with --allow-writes and a key with
// the write scope. Users and groups to act on are created through v1 (so a site API key is needed)
// and neutralised afterwards; a generated or cloned course stays as an unpublished draft.

import { type Context, evidenceOf, fail, pass, skip } from '../context.ts';
import { minimalPdf } from '../fixtures.ts';
import { curlOf } from '../http.ts';
import type { Check, Verdict } from '../types.ts';
import { judge, need, v2CourseId } from './helpers.ts';

const S = 'seed 000';
const needs = { mcpScope: 'write' as const, writes: true, apiKey: true };
const area = (a: string) => `v2.${a}`;
const offered = (ctx: Context, tool: string) => ctx.key('write')?.tools.includes(tool) ?? false;
const w = (ctx: Context) => ctx.v2Headers('write');

/** A learner made for the run through v1, with its v2 integer id. */
const agentUser = (ctx: Context) =>
  ctx.once('v2.fixtureUser', async () => {
    const email = `${ctx.runId}-agent@example.invalid`;
    const created = await ctx.v1.call('createUser', {
      headers: ctx.v1Headers(),
      body: { name: `lmskit agent ${ctx.runId}`, email, password: 'Conformance-123', roleAlias: 'learner' },
    });
    const apiId = (created.body as { id?: string })?.id;
    if (!apiId) return undefined;
    ctx.cleanup(() => ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: apiId } }));
    const found = await ctx.v2.call('searchUsers', { query: { query: email, limit: 5 }, headers: w(ctx) });
    return (found.body as { users?: { id: number; email: string }[] })?.users?.find((u) => u.email === email)
      ?.id;
  });

const withAgent = async (ctx: Context, tool: string, then: (userId: number) => Promise<Verdict>) => {
  if (!offered(ctx, tool)) return skip(`the write key is not offered ${tool}`);
  const id = need(await agentUser(ctx), 'fixture user (created through v1)');
  return typeof id === 'number' ? then(id) : id;
};

async function pollJob(ctx: Context, jobId: string): Promise<{ status: string; body: unknown }> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const e = await ctx.v2.call('getGenerationJob', { params: { jobId }, headers: w(ctx) });
    const status = (e.body as { status?: string })?.status ?? `HTTP ${e.status}`;
    if (status !== 'queued' || Date.now() > deadline) return { status, body: e.body };
    // Seed 000: "poll every 3-5 seconds".
    await new Promise((r) => setTimeout(r, 3000));
  }
}

export const v2WriteChecks: Check[] = [
  {
    id: 'v2.assign.user.idempotent',
    area: area('assign'),
    level: 'MUST',
    source: `${S}, assign_training: "idempotent: re-assigning the same user is a no-op"`,
    title: 'assigning a user twice answers 200 both times and leaves one assignment',
    needs,
    run: (ctx) =>
      withAgent(ctx, 'assign_training', async (userId) => {
        const courseId = need(await v2CourseId(ctx), 'course');
        if (typeof courseId !== 'number') return courseId;
        const first = await ctx.v2.call('assignUserToCourse', {
          params: { courseId },
          headers: w(ctx),
          body: { userId },
        });
        const verdict = judge(ctx.v2, 'assignUserToCourse', first, [200]);
        if (verdict.status !== 'pass') return verdict;
        const second = await ctx.v2.call('assignUserToCourse', {
          params: { courseId },
          headers: w(ctx),
          body: { userId },
        });
        const again = judge(ctx.v2, 'assignUserToCourse', second, [200]);
        if (again.status !== 'pass') return again;
        const list = await ctx.v2.call('listUserAssignments', { params: { userId }, headers: w(ctx) });
        const rows =
          (list.body as { assignments?: { courseId: number }[] })?.assignments?.filter(
            (a) => a.courseId === courseId,
          ) ?? [];
        return rows.length === 1
          ? pass()
          : fail(
              `${rows.length} assignments of course ${courseId} after assigning twice`,
              evidenceOf(list, 'exactly one'),
            );
      }),
  },
  {
    id: 'v2.assign.groups.contract',
    area: area('assign'),
    level: 'MUST',
    source: `${S}, bulk_assign: POST /api/v2/courses/:courseId/assignments, body {groups: [groupId]}`,
    title: 'assigning a course to a group answers as documented',
    needs,
    run: async (ctx) => {
      if (!offered(ctx, 'bulk_assign')) return skip('the write key is not offered bulk_assign');
      const group = await ctx.v1.call('createGroup', {
        headers: ctx.v1Headers(),
        body: { name: `lmskit ${ctx.runId} v2` },
      });
      const groupId = (group.body as { id?: number })?.id;
      if (groupId === undefined) return skip('no group could be created through v1');
      ctx.cleanup(() =>
        ctx.v1.call('updateGroup', {
          params: { groupId },
          headers: ctx.v1Headers(),
          body: { name: `lmskit removed ${ctx.runId}` },
        }),
      );
      const courseId = need(await v2CourseId(ctx), 'course');
      if (typeof courseId !== 'number') return courseId;
      return judge(
        ctx.v2,
        'assignCourseToGroups',
        await ctx.v2.call('assignCourseToGroups', {
          params: { courseId },
          headers: w(ctx),
          body: { groups: [groupId] },
        }),
        [200],
      );
    },
  },
  {
    id: 'v2.users.ban-unban',
    area: area('users'),
    level: 'MUST',
    source: `${S}, ban_user / unban_user: revokes access, keeps history; restores access`,
    title: 'banning then unbanning a user answers as documented, and the status follows',
    needs,
    run: (ctx) =>
      withAgent(ctx, 'ban_user', async (userId) => {
        const ban = await ctx.v2.call('banUser', { headers: w(ctx), body: { userId } });
        const banned = judge(ctx.v2, 'banUser', ban, [200]);
        if (banned.status !== 'pass') return banned;
        const detail = await ctx.v2.call('getUser', { params: { userId }, headers: w(ctx) });
        if ((detail.body as { status?: string })?.status !== 'banned')
          return fail('the user is not banned after ban_user', evidenceOf(detail, 'status banned'));
        return judge(
          ctx.v2,
          'unbanUser',
          await ctx.v2.call('unbanUser', { params: { userId }, headers: w(ctx) }),
          [200],
        );
      }),
  },
  {
    id: 'v2.users.email.unique',
    area: area('users'),
    level: 'MUST',
    source: `${S}, change_user_email: POST /api/v2/users/:userId/email/change; e-mail unique (seed 001)`,
    title: "changing a user's e-mail answers as documented; another user's address is refused",
    needs,
    run: (ctx) =>
      withAgent(ctx, 'change_user_email', async (userId) => {
        const changed = await ctx.v2.call('changeUserEmail', {
          params: { userId },
          headers: w(ctx),
          body: { email: `${ctx.runId}-agent2@example.invalid` },
        });
        const verdict = judge(ctx.v2, 'changeUserEmail', changed, [200]);
        if (verdict.status !== 'pass') return verdict;
        const taken = ctx.key('write')?.user.email;
        if (!taken) return pass();
        const refused = await ctx.v2.call('changeUserEmail', {
          params: { userId },
          headers: w(ctx),
          body: { email: taken },
        });
        return refused.status >= 400 && refused.status < 500
          ? pass()
          : fail(`a taken e-mail answered ${refused.status}`, evidenceOf(refused, 'a 4xx'));
      }),
  },
  {
    id: 'v2.audit.records-writes',
    area: area('audit'),
    level: 'SHOULD',
    source:
      'assumed: every write appends to the audit log (seed 000 lists the audit log; what it records is not shown)',
    title: "the key owner's writes appear in the audit log under their id",
    needs,
    run: async (ctx) => {
      const owner = ctx.key('write')?.user.id;
      if (owner === undefined || !offered(ctx, 'get_audit_log'))
        return skip('the write key cannot read the audit log');
      const e = await ctx.v2.call('listAuditLog', {
        query: { 'fields[author]': owner, limit: 10 },
        headers: w(ctx),
      });
      const verdict = judge(ctx.v2, 'listAuditLog', e, [200]);
      if (verdict.status !== 'pass') return verdict;
      return ((e.body as { entries?: unknown[] })?.entries ?? []).length > 0
        ? pass()
        : fail('no entry by the key owner after its writes', evidenceOf(e, 'entries by the key owner'));
    },
  },
  {
    id: 'v2.ai.upload.type-by-content',
    area: area('ai'),
    level: 'MUST',
    source: `${S}, Upload constraints: PDF, DOC, DOCX, PNG, JPG, GIF, WebP`,
    title: 'a text file named .pdf is refused; a real PDF is accepted and processed into chunks',
    needs: { mcpScope: 'write', writes: true },
    run: async (ctx) => {
      if (!offered(ctx, 'upload_source_material'))
        return skip('the write key is not offered upload_source_material');
      const url = `${ctx.v2.base}${ctx.v2.operation('uploadSourceMaterial').path}`;
      const send = async (data: Buffer, name: string) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(data)]), name);
        const response = await fetch(url, { method: 'POST', headers: w(ctx), body: form });
        const text = await response.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {}
        return {
          method: 'POST',
          url,
          requestHeaders: w(ctx),
          status: response.status,
          headers: response.headers,
          text,
          body,
        };
      };
      const fake = await send(Buffer.from('plain text, not a PDF'), 'notes.pdf');
      if (fake.status < 400 || fake.status >= 500)
        return fail(`a text file named .pdf answered ${fake.status}`, {
          expected: '4xx (415)',
          received: `${fake.status} ${fake.text}`,
          curl: curlOf(fake),
        });
      const real = await send(
        minimalPdf('Photosynthesis turns light into sugar in the leaves of plants.'),
        'photosynthesis.pdf',
      );
      const uploaded = judge(ctx.v2, 'uploadSourceMaterial', real, [200, 201]);
      if (uploaded.status !== 'pass') return uploaded;
      const { sessionId, fileId } = real.body as { sessionId: string; fileId: string };
      const processed = await ctx.v2.call('processSourceMaterial', {
        headers: w(ctx),
        body: { sessionId, fileId },
      });
      const verdict = judge(ctx.v2, 'processSourceMaterial', processed, [200]);
      if (verdict.status !== 'pass') return verdict;
      return ((processed.body as { chunkCount?: number })?.chunkCount ?? 0) > 0
        ? pass()
        : fail('no text chunk was extracted from the PDF', evidenceOf(processed, 'chunkCount ≥ 1'));
    },
  },
  {
    id: 'v2.ai.generate.flow',
    area: area('ai'),
    level: 'MUST',
    source: `${S}, Generation job: queued → completed with result.courseId (or failed with error.message)`,
    title:
      'generating from a prompt answers a queued job that ends completed with a course, or failed with a message',
    needs: { mcpScope: 'write', writes: true },
    run: async (ctx) => {
      if (!offered(ctx, 'create_course_from_prompt'))
        return skip('the write key is not offered create_course_from_prompt');
      const started = await ctx.v2.call('generateCourse', {
        headers: w(ctx),
        body: { prompt: `Create a short course about knots (${ctx.runId})`, options: { moduleCount: 2 } },
      });
      const verdict = judge(ctx.v2, 'generateCourse', started, [200, 201, 202]);
      if (verdict.status !== 'pass') return verdict;
      const { jobId, status } = started.body as { jobId: string; status: string };
      if (status !== 'queued')
        return fail(`the new job's status is ${status}`, evidenceOf(started, 'status queued'));
      const end = await pollJob(ctx, jobId);
      const body = end.body as { result?: { courseId?: number }; error?: { message?: string } };
      if (end.status === 'completed' && typeof body.result?.courseId === 'number') {
        ctx.once('v2.generatedCourse', async () => body.result?.courseId);
        const course = await ctx.v2.call('getCourse', {
          params: { courseId: body.result.courseId },
          headers: w(ctx),
        });
        return judge(ctx.v2, 'getCourse', course, [200]);
      }
      if (end.status === 'failed' && typeof body.error?.message === 'string') return pass();
      return fail(`the job ended ${end.status}`, {
        expected: 'completed with result.courseId, or failed with error.message',
        received: JSON.stringify(end.body),
      });
    },
  },
  {
    id: 'v2.ai.refine.append-only',
    area: area('ai'),
    level: 'MUST',
    source: `${S}, refine_course: "append-only, never modifies or deletes existing content"`,
    title: 'refining a course adds elements and keeps every existing one unchanged',
    needs: { mcpScope: 'write', writes: true },
    run: async (ctx) => {
      if (!offered(ctx, 'refine_course')) return skip('the write key is not offered refine_course');
      const courseId = await ctx.once<number | undefined>('v2.generatedCourse', async () => undefined);
      if (courseId === undefined) return skip('no course was generated in this run');
      const before = await ctx.v2.call('getCourse', { params: { courseId }, headers: w(ctx) });
      const refined = await ctx.v2.call('refineCourse', {
        params: { courseId },
        headers: w(ctx),
        body: { feedback: 'Add an example about sailing knots' },
      });
      const verdict = judge(ctx.v2, 'refineCourse', refined, [200]);
      if (verdict.status !== 'pass') return verdict;
      const after = await ctx.v2.call('getCourse', { params: { courseId }, headers: w(ctx) });
      const elements = (e: { body: unknown }) =>
        ((e.body as { structure?: { elements?: unknown[] } })?.structure?.elements ?? []).map((x) =>
          JSON.stringify(x),
        );
      const old = elements(before);
      const now = elements(after);
      if (now.length <= old.length)
        return fail('no element was added', evidenceOf(after, `more than ${old.length} elements`));
      return old.every((x, i) => now[i] === x)
        ? pass()
        : fail('an existing element changed', evidenceOf(after, 'the old elements unchanged, in order'));
    },
  },
];
