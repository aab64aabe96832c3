// AI refusals (seed 000, "AI tools"): a generation without a prompt, a refinement without feedback,
// the regeneration of a question that is not single-choice, and a generation from a session nothing
// was uploaded to are refused (or, for the last, its job fails); the refused question stays as it
// was. Run with --allow-writes and the write key.
//
// The AI checks (./ai-refusals.ts, ./ai-generation.ts, ./ai-regeneration.ts) run in that order,
// since each key's AI calls are counted (seed 000, Limits: 5 a day per key; the run spends at most 3
// per key, and a call that would pass that is not sent at all, refusal or not):
// - the write key: the generation from a prompt without options (v2.ai.generate.flow, whose course
//   gives the defaults judged in ./ai-generation.ts), the refinement (./writes.ts), and the
//   regeneration of a lesson of its own generated course (./ai-regeneration.ts) — three;
// - the author's key: one generation from files, with options, and the regeneration of a question of
//   that course, its own — two, so that the author's refusals the permission checks provoke later are
//   still sent.
// The refusals here are sent with the write key before its third call: a refusal does not count,
// but a deployment that accepts one spends a call, and a later check may then find the key's budget
// spent.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { keyHeaders } from '../common/discover.ts';
import { clonedCourse, type Element, elementsOf, generate, is4xx } from '../common/generation.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { requireWriteTools } from '../common/keys.ts';

const area = 'v2.ai';
/** A request the write key makes that changes the deployment when it is accepted. */
const writes = { mcpScope: 'write' as const, writes: true };

/**
 * A question of another type than single-choice (the kit's `questionType`), found in get_course of
 * the newest courses v1 lists (seed 001: 20 a page; read from the last page back).
 */
const otherTypeQuestion = (ctx: Context) =>
  ctx.once('v2.ai.otherTypeQuestion', async () => {
    const page = (offset: number) =>
      ctx.v1.call('listCourses', { headers: ctx.v1Headers(), ...(offset ? { query: { offset } } : {}) });
    const first = await page(0);
    mustPass(judge(ctx.v1, 'listCourses', first, [200]), 'listing the courses through v1');
    const total = (first.body as { totalCount: number }).totalCount;
    let scanned = 0;
    for (
      let offset = Math.floor(Math.max(total - 1, 0) / 20) * 20;
      offset >= 0 && scanned < 60;
      offset -= 20
    ) {
      const list = offset ? await page(offset) : first;
      const courses = (list.body as { courses?: { id: number }[] })?.courses ?? [];
      for (const { id } of [...courses].reverse()) {
        if (scanned++ >= 60) break;
        const e = await ctx.v2.call('getCourse', {
          params: { courseId: id },
          headers: keyHeaders(ctx, 'getCourse'),
        });
        if (e.status !== 200) continue;
        const elements = (e.body as { structure?: { elements?: Element[] } })?.structure?.elements ?? [];
        const index = elements.findIndex(
          (x) => x?.type === 'question' && typeof x.questionType === 'string' && x.questionType !== 'single',
        );
        if (index >= 0) return { courseId: id, index, questionType: elements[index]?.questionType as string };
      }
    }
    throw new Incomplete(
      "no question other than single-choice (questionType of structure.elements, the kit's names) in get_course of the 60 newest courses v1 lists: nothing to refuse",
    );
  });

export const aiRefusalChecks: Check[] = [
  {
    id: 'v2.ai.generate.prompt-required',
    area,
    level: 'MUST',
    rules: ['000/generate.prompt-required'],
    title: "a generation request without a prompt (the seed's {prompt, options} without prompt) is refused",
    needs: { mcpScope: 'write' },
    run: async (ctx) => {
      requireWriteTools(ctx, 'create_course_from_prompt');
      const e = await ctx.v2.callRaw('generateCourse', {
        headers: keyHeaders(ctx, 'generateCourse'),
        body: { options: {} },
      });
      if (!is4xx(e))
        return fail(
          `a generation without a prompt answered ${e.status}`,
          evidenceOf(e, 'a refusal, 4xx (400)'),
        );
      return judge(ctx.v2, 'generateCourse', e, [400]);
    },
  },
  {
    id: 'v2.ai.refine.feedback-required',
    area,
    level: 'MUST',
    rules: ['000/refine.feedback-required'],
    title: 'refining the run’s course copy without feedback is refused',
    needs: { ...writes, apiKey: true },
    run: async (ctx) => {
      requireWriteTools(ctx, 'refine_course', 'clone_course');
      const { id: courseId } = await clonedCourse(ctx);
      const e = await ctx.v2.callRaw('refineCourse', {
        params: { courseId },
        headers: keyHeaders(ctx, 'refineCourse'),
        body: {},
      });
      if (!is4xx(e))
        return fail(
          `refining course ${courseId} without feedback answered ${e.status}`,
          evidenceOf(e, 'a refusal, 4xx (400)'),
        );
      return judge(ctx.v2, 'refineCourse', e, [400]);
    },
  },
  {
    id: 'v2.ai.regenerate-question.single-choice-only',
    area,
    level: 'MUST',
    rules: ['000/regenerate-question.single-choice'],
    title:
      'regenerating a question that is not single-choice (in a copy of its course) is refused, and the question stays as it was',
    needs: { ...writes, apiKey: true },
    run: async (ctx) => {
      requireWriteTools(ctx, 'regenerate_question', 'clone_course');
      const found = await otherTypeQuestion(ctx);
      // A copy, so that a deployment that does not refuse changes no course of its own.
      const clone = await ctx.v2.call('cloneCourse', {
        headers: keyHeaders(ctx, 'cloneCourse'),
        body: { courseId: found.courseId },
      });
      mustPass(judge(ctx.v2, 'cloneCourse', clone, [201]), `copying course ${found.courseId}`);
      const copyId = readAssumed(clone, "the copy's id", (b: { id?: number }) => b.id);
      const read = () =>
        ctx.v2.call('getCourse', { params: { courseId: copyId }, headers: keyHeaders(ctx, 'getCourse') });
      const before = await read();
      mustPass(judge(ctx.v2, 'getCourse', before, [200]), `reading the copy ${copyId}`);
      const question = elementsOf(before)[found.index];
      if (question?.type !== 'question' || question.questionType !== found.questionType || !question.id)
        throw new Incomplete(
          `the copy of course ${found.courseId} has no ${found.questionType} question where the course has one`,
        );
      const e = await ctx.v2.callRaw('regenerateQuestion', {
        params: { questionId: question.id },
        headers: keyHeaders(ctx, 'regenerateQuestion'),
        body: {},
      });
      if (e.status === 403)
        throw new Incomplete(
          `the write key may not edit its copy ${copyId} (403), which says nothing of the question's type`,
        );
      if (!is4xx(e))
        return fail(
          `regenerating the ${found.questionType} question ${question.id} answered ${e.status}`,
          evidenceOf(e, 'a refusal, 4xx (422): single-choice questions only'),
        );
      mustPass(judge(ctx.v2, 'regenerateQuestion', e, [422]));
      const after = await read();
      mustPass(judge(ctx.v2, 'getCourse', after, [200]), `reading the copy ${copyId} again`);
      return JSON.stringify(elementsOf(after).find((x) => x.id === question.id)) === JSON.stringify(question)
        ? pass()
        : fail(
            `the ${found.questionType} question ${question.id} changed after a refused regeneration`,
            evidenceOf(after, JSON.stringify(question)),
          );
    },
  },
  {
    id: 'v2.ai.generate.from-files.needs-upload',
    area,
    level: 'MUST',
    rules: ['000/generate-from-files.needs-upload'],
    title:
      'generating from a sessionId nothing was uploaded to is refused, or its job fails: it makes no course',
    needs: writes,
    run: async (ctx) => {
      requireWriteTools(ctx, 'create_course_from_files');
      const sessionId = `${ctx.runId}-nothing-uploaded`;
      const g = await generate(ctx, {
        prompt: `Create a short course from the uploaded material (${ctx.runId})`,
        sessionId,
      });
      if (is4xx(g.started)) return judge(ctx.v2, 'generateCourse', g.started, [404]);
      mustPass(judge(ctx.v2, 'generateCourse', g.started, [202]));
      if (g.courseId !== undefined)
        return fail(
          `a generation from session ${sessionId}, to which nothing was uploaded, made course ${g.courseId}`,
          evidenceOf(g.end?.e ?? g.started, 'a refusal (4xx), or a job that fails'),
        );
      return g.end?.status === 'failed'
        ? pass()
        : fail(
            `the job of a generation from an empty session ended ${g.end?.status || 'without a status'}`,
            evidenceOf(g.end?.e ?? g.started, 'a refusal (4xx), or a job that fails'),
          );
    },
  },
];
