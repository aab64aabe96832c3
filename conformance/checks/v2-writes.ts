// v2, stateful (seed 000, "Write tools" and "AI tools"), run only with --allow-writes and a key with
// the write scope. Each write is read back before it passes. Users and groups to act on are created
// through v1 (so a site API key is needed) and neutralised afterwards; a cloned or generated course
// stays as an unpublished draft. The run spends at most two AI calls (one generation, one
// refinement of the cloned course).
import { type Context, evidenceOf, fail, pass } from '../context.ts';
import { minimalPdf } from '../fixtures.ts';
import type { Exchange } from '../http.ts';
import { Departure, Incomplete, Skipped } from '../outcomes.ts';
import type { Check } from '../types.ts';
import { judge, keyHeaders, readAssumed, v2CourseId, v2User } from './helpers.ts';

const needs = { mcpScope: 'write' as const, writes: true, apiKey: true };
const area = (a: string) => `v2.${a}`;
const w = (ctx: Context, operationId: string) => keyHeaders(ctx, operationId);

/** A learner made for the run through v1 and found through v2 by e-mail (banned afterwards). */
const agentUser = (ctx: Context) =>
  ctx.once('v2.fixtureUser', async () => {
    const email = `${ctx.runId}-agent@example.invalid`;
    const created = await ctx.v1.call('createUser', {
      headers: ctx.v1Headers(),
      body: {
        name: `lmskit agent ${ctx.runId}`,
        email,
        password: 'Conformance-123',
        roleAlias: ctx.config.roleAlias ?? 'learner',
      },
    });
    const apiId = (created.body as { id?: string })?.id;
    if (!apiId)
      throw new Departure(
        'the fixture user could not be created through v1',
        evidenceOf(created, 'the user'),
      );
    ctx.cleanup(() => ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: apiId } }));
    return (await v2User(ctx, email)).id;
  });

/** A group made for the run through v1, with one member (renamed and banned afterwards). */
const agentGroup = (ctx: Context) =>
  ctx.once('v2.fixtureGroup', async () => {
    const e = await ctx.v1.call('createGroup', {
      headers: ctx.v1Headers(),
      body: { name: `lmskit ${ctx.runId} v2` },
    });
    const id = (e.body as { id?: number })?.id;
    if (id === undefined)
      throw new Departure('a group could not be created through v1', evidenceOf(e, 'the group'));
    ctx.cleanup(() =>
      ctx.v1.call('updateGroup', {
        params: { groupId: id },
        headers: ctx.v1Headers(),
        body: { name: `lmskit removed ${ctx.runId}` },
      }),
    );
    // A member, so that the group's assignments show whether they are read per group or per member.
    const member = await ctx.v1.call('createUser', {
      headers: ctx.v1Headers(),
      body: {
        name: `lmskit member ${ctx.runId}`,
        email: `${ctx.runId}-member2@example.invalid`,
        password: 'Conformance-123',
        roleAlias: ctx.config.roleAlias ?? 'learner',
        groups: [id],
      },
    });
    const memberId = (member.body as { id?: string })?.id;
    if (!memberId)
      throw new Departure('a group member could not be created through v1', evidenceOf(member, 'the user'));
    ctx.cleanup(() => ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: memberId } }));
    return id;
  });

const assignmentsOf = (e: Exchange) =>
  readAssumed(e, 'the assignments', (b: { assignments?: { courseId: number }[] }) => b.assignments);

/** The user's status through get_user (its field name is the kit's choice). */
async function statusOf(ctx: Context, userId: number) {
  const e = await ctx.v2.call('getUser', { params: { userId }, headers: w(ctx, 'getUser') });
  const verdict = judge(ctx.v2, 'getUser', e, [200]);
  if (verdict.status !== 'pass') throw new Departure(verdict.reason ?? 'get_user failed', verdict.evidence);
  return { e, status: readAssumed(e, "the user's status", (b: { status?: string }) => b.status) };
}

/** An unpublished copy of a course, made once per run; the refinement acts on it, not on real content. */
export const clonedCourse = (ctx: Context) =>
  ctx.once('v2.clonedCourse', async () => {
    const source = await v2CourseId(ctx);
    const e = await ctx.v2.call('cloneCourse', {
      headers: w(ctx, 'cloneCourse'),
      body: { courseId: source },
    });
    const verdict = judge(ctx.v2, 'cloneCourse', e, [201]);
    if (verdict.status !== 'pass')
      throw new Departure(verdict.reason ?? 'clone_course failed', verdict.evidence);
    return { e, source, id: readAssumed(e, "the copy's id", (b: { id?: number }) => b.id) };
  });

/** Polls a generation job until it ends (or 90 s pass); the key is the write key's unless given. */
export async function pollJob(
  ctx: Context,
  jobId: string,
  headers: Record<string, string> = w(ctx, 'getGenerationJob'),
): Promise<{ status: string; e: Exchange }> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const e = await ctx.v2.call('getGenerationJob', { params: { jobId }, headers });
    const verdict = judge(ctx.v2, 'getGenerationJob', e, [200]);
    if (verdict.status !== 'pass')
      throw new Departure(verdict.reason ?? 'reading the job failed', verdict.evidence);
    const status = (e.body as { status?: string })?.status ?? '';
    // Seed 000: queued, then completed or failed; intermediate states are not shown, so any other
    // value is taken as still running.
    if (status === 'completed' || status === 'failed' || Date.now() > deadline) return { status, e };
    // Seed 000: "poll every 3-5 seconds".
    await new Promise((r) => setTimeout(r, ctx.config.pollIntervalMs ?? 3000));
  }
}

/**
 * Uploads a source file (multipart: the part `file`, and `sessionId` to add it to a session — names
 * the kit chose; the seed names `sessionId` as the tool's parameter), by default with the write key.
 */
export const upload = async (
  ctx: Context,
  data: Buffer,
  name: string,
  type: string,
  options: { sessionId?: string; headers?: Record<string, string> } = {},
) => {
  const form = new FormData();
  if (options.sessionId !== undefined) form.append('sessionId', options.sessionId);
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  // A multipart body: the typed calls know JSON bodies only.
  return ctx.v2.callRaw('uploadSourceMaterial', {
    headers: options.headers ?? w(ctx, 'uploadSourceMaterial'),
    body: form,
  });
};

/** A generation started, and, when it was accepted with a job, how the job ended and its course. */
export interface Generation {
  started: Exchange;
  end?: { status: string; e: Exchange };
  courseId?: number;
}

/** Starts a generation and polls its job to the end; judges nothing (the checks do). */
export async function generate(
  ctx: Context,
  body: Record<string, unknown>,
  headers: Record<string, string> = w(ctx, 'generateCourse'),
): Promise<Generation> {
  const started = await ctx.v2.callRaw('generateCourse', { headers, body });
  const jobId = (started.body as { jobId?: unknown } | undefined)?.jobId;
  if (started.status >= 300 || typeof jobId !== 'string') return { started };
  const end = await pollJob(ctx, jobId, headers);
  const courseId = (end.e.body as { result?: { courseId?: unknown } }).result?.courseId;
  return {
    started,
    end,
    ...(end.status === 'completed' && typeof courseId === 'number' ? { courseId } : {}),
  };
}

/**
 * The run's generation from a prompt alone, without options, the prompt in German: what the flow
 * check judges, and the course whose default module count (6) and language (the prompt's) the AI
 * checks read. One of the write key's AI calls.
 */
export const promptGeneration = (ctx: Context) =>
  ctx.once('v2.ai.promptGeneration', () =>
    generate(ctx, {
      prompt: `Erstelle einen kurzen Kurs über Knoten für die Segler und die Kletterer (${ctx.runId})`,
    }),
  );

const offered = (ctx: Context, tool: string) => {
  if (!ctx.key('write')?.tools.includes(tool))
    throw new Skipped(`the write key given is not offered ${tool} (--mcp-key)`);
};

export const v2WriteChecks: Check[] = [
  {
    id: 'v2.assign.user.idempotent',
    area: area('assign'),
    level: 'MUST',
    rules: ['000/assign-training', '000/assign-training.assigns', '000/list-assignments'],
    title: "assigning a user twice succeeds both times and leaves one assignment in the user's list",
    needs,
    run: async (ctx) => {
      offered(ctx, 'assign_training');
      const userId = await agentUser(ctx);
      const courseId = await v2CourseId(ctx);
      for (let i = 0; i < 2; i++) {
        const e = await ctx.v2.call('assignUserToCourse', {
          params: { courseId },
          headers: w(ctx, 'assignUserToCourse'),
          body: { userId },
        });
        const verdict = judge(ctx.v2, 'assignUserToCourse', e, [200]);
        if (verdict.status !== 'pass') return verdict;
      }
      const list = await ctx.v2.call('listUserAssignments', {
        params: { userId },
        headers: w(ctx, 'listUserAssignments'),
      });
      const verdict = judge(ctx.v2, 'listUserAssignments', list, [200]);
      if (verdict.status !== 'pass') return verdict;
      const rows = assignmentsOf(list).filter((a) => a.courseId === courseId);
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
      offered(ctx, 'bulk_assign');
      const groupId = await agentGroup(ctx);
      const courseId = await v2CourseId(ctx);
      const e = await ctx.v2.call('assignCourseToGroups', {
        params: { courseId },
        headers: w(ctx, 'assignCourseToGroups'),
        body: { groups: [groupId] },
      });
      const verdict = judge(ctx.v2, 'assignCourseToGroups', e, [200]);
      if (verdict.status !== 'pass') return verdict;
      const list = await ctx.v2.call('listGroupAssignments', {
        params: { groupId },
        headers: w(ctx, 'listGroupAssignments'),
      });
      const read = judge(ctx.v2, 'listGroupAssignments', list, [200]);
      if (read.status !== 'pass') return read;
      return assignmentsOf(list).some((a) => a.courseId === courseId)
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
      offered(ctx, 'ban_user');
      const userId = await agentUser(ctx);
      const ban = await ctx.v2.call('banUser', { headers: w(ctx, 'banUser'), body: { userId } });
      const banned = judge(ctx.v2, 'banUser', ban, [200]);
      if (banned.status !== 'pass') return banned;
      const after = await statusOf(ctx, userId);
      if (after.status !== 'banned')
        return fail(
          `the user's status is ${after.status} after ban_user`,
          evidenceOf(after.e, 'status banned'),
        );
      const unban = await ctx.v2.call('unbanUser', { params: { userId }, headers: w(ctx, 'unbanUser') });
      const unbanned = judge(ctx.v2, 'unbanUser', unban, [200]);
      if (unbanned.status !== 'pass') return unbanned;
      const restored = await statusOf(ctx, userId);
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
      offered(ctx, 'change_user_email');
      const userId = await agentUser(ctx);
      const address = `${ctx.runId}-agent2@example.invalid`;
      const changed = await ctx.v2.call('changeUserEmail', {
        params: { userId },
        headers: w(ctx, 'changeUserEmail'),
        body: { email: address },
      });
      const verdict = judge(ctx.v2, 'changeUserEmail', changed, [200]);
      if (verdict.status !== 'pass') return verdict;
      if ((await v2User(ctx, address)).id !== userId)
        return fail(`find_user finds another user by ${address}`, evidenceOf(changed, `user ${userId}`));
      const taken = ctx.key('write')?.user.email as string;
      const refused = await ctx.v2.call('changeUserEmail', {
        params: { userId },
        headers: w(ctx, 'changeUserEmail'),
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
      offered(ctx, 'clone_course');
      const { id, source } = await clonedCourse(ctx);
      if (id === source) return fail(`clone_course answered the source course ${source} itself`);
      const e = await ctx.v2.call('getCourse', { params: { courseId: id }, headers: w(ctx, 'getCourse') });
      const verdict = judge(ctx.v2, 'getCourse', e, [200]);
      if (verdict.status !== 'pass') return verdict;
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
      offered(ctx, 'get_audit_log');
      await agentUser(ctx);
      const owner = ctx.key('write')?.user.id as number;
      const e = await ctx.v2.call('listAuditLog', {
        query: { 'fields[author]': owner, limit: 10 },
        headers: w(ctx, 'listAuditLog'),
      });
      const verdict = judge(ctx.v2, 'listAuditLog', e, [200]);
      if (verdict.status !== 'pass') return verdict;
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
      offered(ctx, 'upload_source_material');
      const fake = await upload(ctx, Buffer.from('plain text, not a PDF'), 'notes.pdf', 'application/pdf');
      if (fake.status < 400 || fake.status >= 500)
        return fail(`a text file named .pdf answered ${fake.status}`, evidenceOf(fake, '4xx (415)'));
      const refused = judge(ctx.v2, 'uploadSourceMaterial', fake, [415]);
      if (refused.status !== 'pass') return refused;
      const real = await upload(
        ctx,
        minimalPdf('Photosynthesis turns light into sugar in the leaves of plants.'),
        'photosynthesis.pdf',
        'application/pdf',
      );
      const uploaded = judge(ctx.v2, 'uploadSourceMaterial', real, [201]);
      if (uploaded.status !== 'pass') return uploaded;
      const { sessionId, fileId } = real.body as { sessionId: string; fileId: string };
      const processed = await ctx.v2.call('processSourceMaterial', {
        headers: w(ctx, 'processSourceMaterial'),
        body: { sessionId, fileId },
      });
      const verdict = judge(ctx.v2, 'processSourceMaterial', processed, [200]);
      if (verdict.status !== 'pass') return verdict;
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
      offered(ctx, 'upload_source_material');
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
      offered(ctx, 'create_course_from_prompt');
      // Without options, from a German prompt: the course is also the one whose defaults the AI
      // checks read (conformance/checks/ai.ts).
      const { started, end } = await promptGeneration(ctx);
      const verdict = judge(ctx.v2, 'generateCourse', started, [202]);
      if (verdict.status !== 'pass') return verdict;
      const { status } = started.body as { jobId: string; status: string };
      if (status !== 'queued')
        return fail(`the new job's status is ${status}`, evidenceOf(started, 'status queued'));
      if (!end) return fail('the answer has no jobId', evidenceOf(started, 'a jobId'));
      const body = end.e.body as { result?: { courseId?: number }; error?: { message?: string } };
      if (end.status === 'completed' && typeof body.result?.courseId === 'number') {
        const course = await ctx.v2.call('getCourse', {
          params: { courseId: body.result.courseId },
          headers: w(ctx, 'getCourse'),
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
      offered(ctx, 'refine_course');
      const { id: courseId } = await clonedCourse(ctx);
      const elements = (e: Exchange) =>
        readAssumed(
          e,
          "the course's elements",
          (b: { structure?: { elements?: unknown[] } }) => b.structure?.elements,
        ).map((x) => JSON.stringify(x));
      const before = await ctx.v2.call('getCourse', { params: { courseId }, headers: w(ctx, 'getCourse') });
      const old = elements(before);
      const refined = await ctx.v2.call('refineCourse', {
        params: { courseId },
        headers: w(ctx, 'refineCourse'),
        body: { feedback: 'Add an example about sailing knots' },
      });
      const verdict = judge(ctx.v2, 'refineCourse', refined, [200]);
      if (verdict.status !== 'pass') return verdict;
      const after = await ctx.v2.call('getCourse', { params: { courseId }, headers: w(ctx, 'getCourse') });
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
