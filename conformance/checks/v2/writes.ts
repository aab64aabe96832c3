// v2 writes (seed 000, "Write tools" and "AI tools"), run only with --allow-writes and a key with
// the write scope: assign_training (idempotent) and bulk_assign, ban_user and unban_user,
// change_user_email (a taken address refused), clone_course (an unpublished copy), the audit log of
// the writes; an upload judged by its content and size, a generation from a prompt through its job,
// a refinement that only appends. Each write is read back before it passes. The users and groups
// acted on are made through v1 (so a site API key is needed) and neutralised afterwards; a cloned
// or generated course stays as an unpublished draft. The write key spends two AI calls here (the
// generation, the refinement of the copy).
import { evidenceOf, fail, pass } from '../../context.ts';
import { minimalPdf } from '../../fixtures.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { keyHeaders, userStatus, v2CourseId, v2User } from '../common/discover.ts';
import { groupWithMember, userInV2 } from '../common/fixtures.ts';
import { clonedCourse, promptGeneration, upload } from '../common/generation.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { requireWriteTools } from '../common/keys.ts';

const needs = { mcpScope: 'write' as const, writes: true, apiKey: true };
const area = (a: string) => `v2.${a}`;

/** The course ids of an assignment list (the kit's names: `assignments[].courseId`). */
const assignmentRows = (e: Exchange) =>
  readAssumed(e, 'the assignments', (b: { assignments?: { courseId: number }[] }) => b.assignments);

export const v2WriteChecks: Check[] = [
  {
    id: 'v2.assign.user.idempotent',
    area: area('assign'),
    level: 'MUST',
    rules: ['000/assign-training', '000/assign-training.assigns', '000/list-assignments'],
    title: "assigning a user twice succeeds both times and leaves one assignment in the user's list",
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'assign_training');
      const userId = (await userInV2(ctx, 'agent')).id;
      const courseId = await v2CourseId(ctx);
      for (let i = 0; i < 2; i++) {
        const e = await ctx.v2.call('assignUserToCourse', {
          params: { courseId },
          headers: keyHeaders(ctx, 'assignUserToCourse'),
          body: { userId },
        });
        mustPass(judge(ctx.v2, 'assignUserToCourse', e, [200]));
      }
      const list = await ctx.v2.call('listUserAssignments', {
        params: { userId },
        headers: keyHeaders(ctx, 'listUserAssignments'),
      });
      mustPass(judge(ctx.v2, 'listUserAssignments', list, [200]));
      const rows = assignmentRows(list).filter((a) => a.courseId === courseId);
      return rows.length === 1
        ? pass()
        : fail(
            `${rows.length} assignments of course ${courseId} after assigning twice`,
            evidenceOf(list, 'exactly one'),
          );
    },
  },
  {
    id: 'v2.assign.groups',
    area: area('assign'),
    level: 'MUST',
    rules: ['000/bulk-assign', '000/list-assignments'],
    title: "assigning a course to a group answers as documented, and the group's assignments list it",
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'bulk_assign');
      const groupId = (await groupWithMember(ctx, 'v2')).id;
      const courseId = await v2CourseId(ctx);
      const e = await ctx.v2.call('assignCourseToGroups', {
        params: { courseId },
        headers: keyHeaders(ctx, 'assignCourseToGroups'),
        body: { groups: [groupId] },
      });
      mustPass(judge(ctx.v2, 'assignCourseToGroups', e, [200]));
      const list = await ctx.v2.call('listGroupAssignments', {
        params: { groupId },
        headers: keyHeaders(ctx, 'listGroupAssignments'),
      });
      mustPass(judge(ctx.v2, 'listGroupAssignments', list, [200]));
      return assignmentRows(list).some((a) => a.courseId === courseId)
        ? pass()
        : fail(
            `course ${courseId} is not among group ${groupId}'s assignments`,
            evidenceOf(list, `an assignment of course ${courseId}`),
          );
    },
  },
  {
    id: 'v2.users.ban-unban',
    area: area('users'),
    level: 'MUST',
    rules: ['000/ban-user', '000/unban-user', '000/get-user'],
    title: 'banning a user makes them banned, unbanning makes them active again (read back with get_user)',
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'ban_user');
      const userId = (await userInV2(ctx, 'agent')).id;
      const ban = await ctx.v2.call('banUser', { headers: keyHeaders(ctx, 'banUser'), body: { userId } });
      mustPass(judge(ctx.v2, 'banUser', ban, [200]));
      const after = await userStatus(ctx, userId);
      if (after.status !== 'banned')
        return fail(
          `the user's status is ${after.status} after ban_user`,
          evidenceOf(after.e, 'status banned'),
        );
      const unban = await ctx.v2.call('unbanUser', {
        params: { userId },
        headers: keyHeaders(ctx, 'unbanUser'),
      });
      mustPass(judge(ctx.v2, 'unbanUser', unban, [200]));
      const restored = await userStatus(ctx, userId);
      return restored.status === 'active'
        ? pass()
        : fail(
            `the user's status is ${restored.status} after unban_user`,
            evidenceOf(restored.e, 'status active'),
          );
    },
  },
  {
    id: 'v2.users.email.change',
    area: area('users'),
    level: 'MUST',
    rules: ['000/change-email', '001/users.email-unique'],
    title: "changing a user's e-mail makes them found by it; another user's address is refused",
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'change_user_email');
      const userId = (await userInV2(ctx, 'agent')).id;
      const address = `${ctx.runId}-agent2@example.invalid`;
      const changed = await ctx.v2.call('changeUserEmail', {
        params: { userId },
        headers: keyHeaders(ctx, 'changeUserEmail'),
        body: { email: address },
      });
      mustPass(judge(ctx.v2, 'changeUserEmail', changed, [200]));
      if ((await v2User(ctx, address)).id !== userId)
        return fail(`find_user finds another user by ${address}`, evidenceOf(changed, `user ${userId}`));
      const taken = ctx.key('write')?.user.email as string;
      const refused = await ctx.v2.call('changeUserEmail', {
        params: { userId },
        headers: keyHeaders(ctx, 'changeUserEmail'),
        body: { email: taken },
      });
      return refused.status >= 400 && refused.status < 500
        ? judge(ctx.v2, 'changeUserEmail', refused, [409])
        : fail(`another user's e-mail answered ${refused.status}`, evidenceOf(refused, 'a 4xx (409)'));
    },
  },
  {
    id: 'v2.courses.clone',
    area: area('courses'),
    level: 'MUST',
    rules: ['000/clone-course', '000/get-course'],
    title: 'cloning a course creates an unpublished copy that get_course reads as a draft',
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'clone_course');
      const { id, source } = await clonedCourse(ctx);
      if (id === source) return fail(`clone_course answered the source course ${source} itself`);
      const e = await ctx.v2.call('getCourse', {
        params: { courseId: id },
        headers: keyHeaders(ctx, 'getCourse'),
      });
      mustPass(judge(ctx.v2, 'getCourse', e, [200]));
      return readAssumed(e, "the copy's draft flag", (b: { isDraft?: boolean }) => b.isDraft) === true
        ? pass()
        : fail('the copy is published', evidenceOf(e, 'isDraft true'));
    },
  },
  {
    id: 'v2.audit.records-writes',
    area: area('audit'),
    level: 'SHOULD',
    rules: ['000/audit.filters'],
    assumption: 'every write appends to the audit log under the acting key owner',
    title: "the key owner's writes appear in the audit log under their id",
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'get_audit_log');
      await userInV2(ctx, 'agent');
      const owner = ctx.key('write')?.user.id as number;
      const e = await ctx.v2.call('listAuditLog', {
        query: { 'fields[author]': owner, limit: 10 },
        headers: keyHeaders(ctx, 'listAuditLog'),
      });
      mustPass(judge(ctx.v2, 'listAuditLog', e, [200]));
      return readAssumed(e, 'the audit entries', (b: { entries?: unknown[] }) => b.entries).length > 0
        ? pass()
        : fail('no entry by the key owner after its writes', evidenceOf(e, 'entries by the key owner'));
    },
  },
  {
    id: 'v2.ai.upload.type-by-content',
    area: area('ai'),
    level: 'MUST',
    rules: ['000/upload.types', '000/upload.result', '000/upload.session-generated', '000/upload.extracted'],
    title: 'a text file named .pdf is refused; a real PDF is accepted and processed into chunks',
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'upload_source_material');
      const fake = await upload(ctx, Buffer.from('plain text, not a PDF'), 'notes.pdf', 'application/pdf');
      if (fake.status < 400 || fake.status >= 500)
        return fail(`a text file named .pdf answered ${fake.status}`, evidenceOf(fake, '4xx (415)'));
      mustPass(judge(ctx.v2, 'uploadSourceMaterial', fake, [415]));
      const real = await upload(
        ctx,
        minimalPdf('Photosynthesis turns light into sugar in the leaves of plants.'),
        'photosynthesis.pdf',
        'application/pdf',
      );
      mustPass(judge(ctx.v2, 'uploadSourceMaterial', real, [201]));
      const { sessionId, fileId } = real.body as { sessionId: string; fileId: string };
      const processed = await ctx.v2.call('processSourceMaterial', {
        headers: keyHeaders(ctx, 'processSourceMaterial'),
        body: { sessionId, fileId },
      });
      mustPass(judge(ctx.v2, 'processSourceMaterial', processed, [200]));
      const result = processed.body as { sessionId?: string; filename?: string; chunkCount?: number };
      return result.sessionId === sessionId &&
        result.filename === 'photosynthesis.pdf' &&
        (result.chunkCount ?? 0) > 0
        ? pass()
        : fail(
            'the result is not {sessionId, filename, chunkCount ≥ 1} of the PDF',
            evidenceOf(processed, `sessionId ${sessionId}, filename photosynthesis.pdf, chunkCount ≥ 1`),
          );
    },
  },
  {
    id: 'v2.ai.upload.size-limit',
    area: area('ai'),
    level: 'MUST',
    rules: ['000/upload.size'],
    title: 'a source file of 20 MB and one byte is refused',
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'upload_source_material');
      const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20);
      big.write('%PDF-1.4\n');
      const e = await upload(ctx, big, 'too-large.pdf', 'application/pdf').catch((error: Error) => {
        throw new Incomplete(`the upload of 20 MB + 1 byte was cut off without an answer: ${error.message}`);
      });
      if (e.status < 400 || e.status >= 500)
        return fail(`a file of 20 MB + 1 byte answered ${e.status}`, evidenceOf(e, '4xx (413)'));
      return judge(ctx.v2, 'uploadSourceMaterial', e, [413]);
    },
  },
  {
    id: 'v2.ai.generate.flow',
    area: area('ai'),
    level: 'MUST',
    rules: [
      '000/generate',
      '000/generate.queued',
      '000/generate.duration',
      '000/job.states',
      '000/job.completed-course',
      '000/job.failed-message',
      '000/scope.job-status',
    ],
    title:
      'generating from a prompt answers a queued job that ends completed with a course, or failed with a message',
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'create_course_from_prompt');
      // Without options, from a German prompt: the course is also the one whose defaults the AI
      // checks read (./ai-generation.ts).
      const { started, end } = await promptGeneration(ctx);
      mustPass(judge(ctx.v2, 'generateCourse', started, [202]));
      const { status } = started.body as { jobId: string; status: string };
      if (status !== 'queued')
        return fail(`the new job's status is ${status}`, evidenceOf(started, 'status queued'));
      if (!end) return fail('the answer has no jobId', evidenceOf(started, 'a jobId'));
      const body = end.e.body as { result?: { courseId?: number }; error?: { message?: string } };
      if (end.status === 'completed' && typeof body.result?.courseId === 'number') {
        const course = await ctx.v2.call('getCourse', {
          params: { courseId: body.result.courseId },
          headers: keyHeaders(ctx, 'getCourse'),
        });
        return judge(ctx.v2, 'getCourse', course, [200]);
      }
      if (end.status === 'failed' && typeof body.error?.message === 'string') return pass();
      return fail(
        `the job ended ${end.status || 'without a status'}`,
        evidenceOf(end.e, 'completed with result.courseId, or failed with error.message'),
      );
    },
  },
  {
    id: 'v2.ai.refine.append-only',
    area: area('ai'),
    level: 'MUST',
    rules: ['000/refine', '000/refine.result', '000/refine.adds'],
    title: 'refining a course copy adds elements and keeps every existing one unchanged',
    needs,
    run: async (ctx) => {
      requireWriteTools(ctx, 'refine_course');
      const { id: courseId } = await clonedCourse(ctx);
      const elements = (e: Exchange) =>
        readAssumed(
          e,
          "the course's elements",
          (b: { structure?: { elements?: unknown[] } }) => b.structure?.elements,
        ).map((x) => JSON.stringify(x));
      const before = await ctx.v2.call('getCourse', {
        params: { courseId },
        headers: keyHeaders(ctx, 'getCourse'),
      });
      const old = elements(before);
      const refined = await ctx.v2.call('refineCourse', {
        params: { courseId },
        headers: keyHeaders(ctx, 'refineCourse'),
        body: { feedback: 'Add an example about sailing knots' },
      });
      mustPass(judge(ctx.v2, 'refineCourse', refined, [200]));
      const after = await ctx.v2.call('getCourse', {
        params: { courseId },
        headers: keyHeaders(ctx, 'getCourse'),
      });
      const now = elements(after);
      const added = (refined.body as { elementsAdded?: number }).elementsAdded ?? 0;
      if (now.length !== old.length + added || added < 1)
        return fail(
          `the answer says ${added} elements were added; the course went from ${old.length} to ${now.length}`,
          evidenceOf(after, `${old.length} + ${added} elements`),
        );
      return old.every((x) => now.includes(x))
        ? pass()
        : fail('an existing element changed or disappeared', evidenceOf(after, 'the old elements unchanged'));
    },
  },
];
