// AI regeneration (seed 000, "AI tools": regenerate_question, regenerate_lesson): the author
// regenerates a single-choice question of its own generated course without feedback and gets new
// text and options, the previous text kept in the audit log; the write key regenerates a lesson of
// its own generated course and gets its brief, every existing element untouched. Run with
// --allow-writes, the write key and the author's key; how the AI calls are spent: ./ai-refusals.ts.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { keyHeaders } from '../common/discover.ts';
import { authorCourse, authorKey, courseOf, elementsOf, promptGeneration } from '../common/generation.ts';
import { judge, mustPass } from '../common/judge.ts';
import { requireWriteTools } from '../common/keys.ts';

const area = 'v2.ai';
/** A request the write key makes that changes the deployment when it is accepted. */
const writes = { mcpScope: 'write' as const, writes: true };
const asAuthor = { roles: ['author'], writes: true };

/** A value read through the kit's names from what a check prepared; incomplete when it is not there. */
function assumed<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new Incomplete(`${what} cannot be read: the deployment does not use the names the kit assumed`);
  return value;
}

/** Occurrences of `text` as a whole string value of a JSON answer (also inside a JSON-encoded string). */
function occurrences(e: Exchange, text: string): number {
  const quoted = JSON.stringify(text);
  const escaped = JSON.stringify(quoted).slice(1, -1);
  return e.text.split(quoted).length - 1 + (e.text.split(escaped).length - 1);
}

/** The author regenerates a single-choice question of its own course, without feedback. */
const regeneratedQuestion = (ctx: Context) =>
  ctx.once('v2.ai.regeneratedQuestion', async () => {
    const headers = authorKey(ctx, 'regenerate_question');
    const { course } = await authorCourse(ctx);
    const question = elementsOf(course).find(
      (x) => x.type === 'question' && (x.questionType ?? 'single') === 'single',
    );
    if (typeof question?.id !== 'number')
      throw new Incomplete("the author's generated course has no single-choice question to regenerate");
    const authorId = ctx.roleKey('author')?.user.id as number;
    // The author's entries in the audit log, before and after (a key offered get_audit_log, if any).
    const audit = ctx.keyFor('listAuditLog')
      ? () =>
          ctx.v2.call('listAuditLog', {
            query: { 'fields[author]': authorId },
            headers: keyHeaders(ctx, 'listAuditLog'),
          })
      : undefined;
    const auditBefore = await audit?.();
    const e = await ctx.v2.callRaw('regenerateQuestion', {
      params: { questionId: question.id },
      headers,
      body: {},
    });
    const auditAfter = e.status < 300 ? await audit?.() : undefined;
    return { question, e, auditBefore, auditAfter };
  });

/** The write key regenerates a lesson of its own generated course (v2.ai.generate.flow's). */
const regeneratedLesson = (ctx: Context) =>
  ctx.once('v2.ai.regeneratedLesson', async () => {
    requireWriteTools(ctx, 'regenerate_lesson');
    const { courseId, course: before } = await courseOf(
      ctx,
      await promptGeneration(ctx),
      "the write key's generation from a prompt",
    );
    const lesson = elementsOf(before).find((x) => x.type === 'lesson');
    if (typeof lesson?.id !== 'number')
      throw new Incomplete('the generated course has no lesson to regenerate');
    const e = await ctx.v2.callRaw('regenerateLesson', {
      params: { lessonId: lesson.id },
      headers: keyHeaders(ctx, 'regenerateLesson'),
      body: { feedback: 'Shorter, with one example from the sea' },
    });
    const after =
      e.status < 300
        ? await ctx.v2.call('getCourse', { params: { courseId }, headers: keyHeaders(ctx, 'getCourse') })
        : undefined;
    return { lesson, e, before, after };
  });

export const aiRegenerationChecks: Check[] = [
  {
    id: 'v2.ai.regenerate-question.result',
    area,
    level: 'MUST',
    rules: ['000/regenerate-question.result', '000/regenerate-question.feedback-optional'],
    title:
      'regenerating a single-choice question of the author’s course without feedback answers it with new text and new options',
    needs: asAuthor,
    run: async (ctx) => {
      const { question, e } = await regeneratedQuestion(ctx);
      mustPass(judge(ctx.v2, 'regenerateQuestion', e, [200]));
      const answer = e.body as { questionId: number; text: string; options: unknown[] };
      if (answer.questionId !== question.id)
        return fail(
          `the answer is about question ${answer.questionId}, not ${question.id}`,
          evidenceOf(e, `questionId ${question.id}`),
        );
      const old = assumed(
        typeof question.title === 'string' && Array.isArray(question.options) ? question : undefined,
        "the old question's text and options (title, options of the course's element)",
      );
      if (answer.text.trim() === '' || answer.text === old.title)
        return fail(
          `the regenerated question's text is ${JSON.stringify(answer.text)}, the old one was ${JSON.stringify(old.title)}`,
          evidenceOf(e, 'a new text'),
        );
      return JSON.stringify(answer.options) !== JSON.stringify(old.options)
        ? pass()
        : fail('the regenerated question has the same options as before', evidenceOf(e, 'new options'));
    },
  },
  {
    id: 'v2.ai.regenerate-question.audit',
    area,
    level: 'MUST',
    rules: ['000/regenerate'],
    title:
      "a regenerated question's previous text appears in the audit log (the author's entries) afterwards",
    needs: { ...asAuthor, mcpScope: 'read' },
    run: async (ctx) => {
      keyHeaders(ctx, 'listAuditLog'); // skipped unless a key given may read the audit log
      const { question, e, auditBefore, auditAfter } = await regeneratedQuestion(ctx);
      if (e.status >= 300)
        throw new Incomplete(
          `the regeneration of question ${question.id} answered ${e.status} (v2.ai.regenerate-question.result judges it): no previous content to keep`,
        );
      if (!auditBefore || !auditAfter) throw new Incomplete('the audit log was not read');
      for (const a of [auditBefore, auditAfter]) {
        mustPass(judge(ctx.v2, 'listAuditLog', a, [200]));
      }
      const old = assumed(question.title, "the old question's text (title of the course's element)");
      const before = occurrences(auditBefore, old);
      const after = occurrences(auditAfter, old);
      return after > before
        ? pass()
        : fail(
            `the previous text of question ${question.id} (${JSON.stringify(old)}) is not among the author's audit entries after its regeneration`,
            evidenceOf(auditAfter, `an entry holding ${JSON.stringify(old)}`),
          );
    },
  },
  {
    id: 'v2.ai.regenerate-lesson.brief',
    area,
    level: 'MUST',
    rules: ['000/regenerate-lesson.result'],
    title:
      'regenerating a lesson of the write key’s generated course answers {lessonId, brief} with topic, title, description, key points and target audience',
    needs: writes,
    run: async (ctx) => {
      const { lesson, e } = await regeneratedLesson(ctx);
      mustPass(judge(ctx.v2, 'regenerateLesson', e, [200]));
      const { lessonId } = e.body as { lessonId: number };
      return lessonId === lesson.id
        ? pass()
        : fail(
            `the answer is about lesson ${lessonId}, not ${lesson.id}`,
            evidenceOf(e, `lessonId ${lesson.id}`),
          );
    },
  },
  {
    id: 'v2.ai.regenerate-lesson.pages-untouched',
    area,
    level: 'MUST',
    rules: ['000/regenerate-lesson.pages-untouched'],
    title:
      'regenerating a lesson leaves every existing element of the course as it was (get_course before and after)',
    needs: writes,
    run: async (ctx) => {
      const { lesson, e, before, after } = await regeneratedLesson(ctx);
      if (e.status >= 300 || !after)
        throw new Incomplete(
          `the regeneration of lesson ${lesson.id} answered ${e.status} (v2.ai.regenerate-lesson.brief judges it): nothing to compare`,
        );
      mustPass(judge(ctx.v2, 'getCourse', after, [200]), 'reading the course after the regeneration');
      const now = elementsOf(after).map((x) => JSON.stringify(x));
      const changed = elementsOf(before).filter((x) => !now.includes(JSON.stringify(x)));
      return changed.length === 0
        ? pass()
        : fail(
            `after regenerating lesson ${lesson.id}, element${changed.length > 1 ? 's' : ''} ${changed.map((x) => x.id).join(', ')} changed or disappeared`,
            evidenceOf(after, 'every element as before the regeneration'),
          );
    },
  },
];
