// AI generation options, generation from files, regeneration and every upload type (seed 000, "AI
// tools"). Run with --allow-writes, the write key (the admin's) and the author's key
// (--role-key author=KEY).
//
// The AI calls (seed 000, Limits: 5 a day per key; the run spends at most 3 per key, and a call that
// would pass that is not sent at all, refusal or not):
// - the write key: the generation from a prompt without options (v2.ai.generate.flow, whose course
//   gives the defaults judged here), the refinement (v2-writes), and the regeneration of a lesson of
//   its own generated course (here) — three;
// - the author's key: one generation from files, with options, and the regeneration of a question of
//   that course, its own — two, so that the author's refusals the permission checks provoke later are
//   still sent.
// The refusals (no prompt, no feedback, a question of another type, a session nothing was uploaded
// to) are sent with the write key before its third call: a refusal does not count, but a deployment
// that accepts one spends a call, and a later check may then find the key's budget spent.
//
// The generation options. Seed 000 gives them as `<module count>`, `<language>`, `<title>` inside the
// documented body `{prompt, sessionId, options}`; their names (`moduleCount`, `language`, `title`) are
// the kit's. A deployment that refuses them (4xx) makes the option checks incomplete — it may call
// them otherwise — and the generation from files is then retried without options (a refusal costs no
// AI call). A deployment that accepts them and does not honour them fails: accepting an option means
// honouring it. The title is read by value where seed 001 names it (the course's `name` through v1
// GET /courses/{id}; both APIs serve one platform and share course ids); how modules and the language
// appear in a course the seeds do not show, so they are read through the kit's names (the lessons of
// `structure.elements`, one per module; `language`), and a deployment naming them otherwise makes
// those checks incomplete.
//
// A generation job that fails (seed 000: `failed` with `error.message`) is no departure; the checks
// that need its course are then incomplete.
import { type Context, evidenceOf, fail, pass } from '../context.ts';
import { minimalDocx, minimalPdf, SOURCE_FILES } from '../fixtures.ts';
import type { Exchange } from '../http.ts';
import { Departure, Incomplete, Skipped } from '../outcomes.ts';
import type { Check, Verdict } from '../types.ts';
import { judge, keyHeaders, readAssumed } from './helpers.ts';
import { clonedCourse, type Generation, generate, promptGeneration, upload } from './v2-writes.ts';

const area = 'v2.ai';
/** A request the write key makes that changes the deployment when it is accepted. */
const writes = { mcpScope: 'write' as const, writes: true };
const asAuthor = { roles: ['author'], writes: true };
const w = (ctx: Context, operationId: string) => keyHeaders(ctx, operationId);

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The write key must be offered these tools (skipped otherwise, naming the flag). */
function offered(ctx: Context, ...tools: string[]): void {
  const missing = tools.filter((t) => !ctx.key('write')?.tools.includes(t));
  if (missing.length)
    throw new Skipped(`the write key given is not offered ${missing.join(', ')} (--mcp-key)`);
}

/** The author's key as headers, when it is offered these tools. */
function authorKey(ctx: Context, ...tools: string[]): Record<string, string> {
  const key = ctx.roleKey('author');
  if (!key) throw new Skipped('no key of an author given (--role-key author=KEY)');
  const missing = tools.filter((t) => !key.tools.includes(t));
  if (missing.length)
    throw new Skipped(`the author key given is not offered ${missing.join(', ')} (--role-key author=KEY)`);
  return { 'x-mcp-key': key.key };
}

/** What a check prepares must hold; a failed verdict there is the check's failure, saying what failed. */
function required(verdict: Verdict, what: string): void {
  if (verdict.status !== 'pass')
    throw new Departure(`${what}: ${verdict.reason ?? 'failed'}`, verdict.evidence);
}

/** A value read through the kit's names from what a check prepared; incomplete when it is not there. */
function assumed<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new Incomplete(`${what} cannot be read: the deployment does not use the names the kit assumed`);
  return value;
}

/** 4xx: refused. */
const refused = (e: Exchange) => e.status >= 400 && e.status < 500;

/** The course of a generation, read with get_course (write key); incomplete when the job failed. */
async function courseOf(ctx: Context, g: Generation, what: string) {
  required(judge(ctx.v2, 'generateCourse', g.started, [202]), what);
  if (!g.end) throw new Departure(`${what}: the answer has no jobId`, evidenceOf(g.started, 'a jobId'));
  if (g.end.status === 'failed')
    throw new Incomplete(
      `${what}: the job failed (${(g.end.e.body as { error?: { message?: string } }).error?.message ?? 'no message'}), so there is no course to judge`,
    );
  if (g.courseId === undefined)
    throw new Departure(
      `${what}: the job ended ${g.end.status || 'without a status'} without result.courseId`,
      evidenceOf(g.end.e, 'completed with result.courseId'),
    );
  const course = await ctx.v2.call('getCourse', {
    params: { courseId: g.courseId },
    headers: w(ctx, 'getCourse'),
  });
  required(judge(ctx.v2, 'getCourse', course, [200]), `${what}: reading course ${g.courseId}`);
  return { courseId: g.courseId, course };
}

type Element = { id?: number; type?: string; title?: string; questionType?: string; options?: unknown };

/** The elements of a course in the kit's names (`structure.elements`); incomplete when named otherwise. */
const elementsOf = (e: Exchange) =>
  readAssumed(
    e,
    "the course's elements (structure.elements)",
    (b: { structure?: { elements?: Element[] } }) =>
      Array.isArray(b.structure?.elements) && b.structure.elements.some((x) => typeof x?.type === 'string')
        ? b.structure.elements
        : undefined,
  );

/** Modules, in the kit's names: each module is a lesson of `structure.elements` (and a question). */
const modulesOf = (e: Exchange) => elementsOf(e).filter((x) => x.type === 'lesson').length;

const languageOf = (e: Exchange) =>
  readAssumed(e, "the course's language", (b: { language?: string }) => b.language);

/** Occurrences of `text` as a whole string value of a JSON answer (also inside a JSON-encoded string). */
function occurrences(e: Exchange, text: string): number {
  const quoted = JSON.stringify(text);
  const escaped = JSON.stringify(quoted).slice(1, -1);
  return e.text.split(quoted).length - 1 + (e.text.split(escaped).length - 1);
}

const mentions = (e: Exchange, word: string) => e.text.toLowerCase().includes(word.toLowerCase());

// --- The author's generation from files, with options ---------------------------------------------

/** Two made-up proper names, one per file: a course built from the files repeats them, a prompt alone cannot. */
const FILES = {
  pdf: {
    word: 'Skellmoor',
    name: 'lighthouse.pdf',
    text: 'The Skellmoor lighthouse stands on a granite rock, and its lamp is lit every evening at sunset.',
  },
  docx: {
    word: 'Pellavine',
    name: 'volunteers.docx',
    text: 'Keeper Ondrea Pellavine trains every new volunteer to clean the lens and to log the passing ships.',
  },
};
const OPTIONS = (ctx: Context) => ({
  moduleCount: 2,
  language: 'fr',
  title: `Gardiens de phare ${ctx.runId}`,
});

/** The ids of an upload (the kit's names: the seed shows the processed result only). */
const uploadIds = (e: Exchange) =>
  readAssumed(e, 'the session and file of the upload', (b: { sessionId?: unknown; fileId?: unknown }) =>
    typeof b.sessionId === 'string' && typeof b.fileId === 'string'
      ? { sessionId: b.sessionId, fileId: b.fileId }
      : undefined,
  );

/** Uploads a file and processes it (seed 000, upload_source_material: upload, then process). */
async function uploadAndProcess(
  ctx: Context,
  data: Buffer,
  name: string,
  type: string,
  options: { sessionId?: string; headers?: Record<string, string> },
) {
  const uploaded = await upload(ctx, data, name, type, options);
  required(judge(ctx.v2, 'uploadSourceMaterial', uploaded, [201]), `uploading ${name}`);
  const processed = await ctx.v2.call('processSourceMaterial', {
    headers: options.headers ?? w(ctx, 'processSourceMaterial'),
    body: uploadIds(uploaded),
  });
  required(judge(ctx.v2, 'processSourceMaterial', processed, [200]), `processing ${name}`);
  return { uploaded, processed, sessionId: (processed.body as { sessionId: string }).sessionId };
}

/**
 * The author uploads a PDF, then a DOCX into the same session (reusing its `sessionId`), and generates
 * a course from them with options; refused options are dropped and the generation retried.
 */
const authorGeneration = (ctx: Context) =>
  ctx.once('v2.ai.authorGeneration', async () => {
    const headers = authorKey(ctx, 'upload_source_material', 'create_course_from_files');
    const pdf = await uploadAndProcess(ctx, minimalPdf(FILES.pdf.text), FILES.pdf.name, 'application/pdf', {
      headers,
    });
    const docx = await uploadAndProcess(ctx, minimalDocx(FILES.docx.text), FILES.docx.name, DOCX, {
      headers,
      sessionId: pdf.sessionId,
    });
    const prompt = `Create a short course for new lighthouse volunteers from the uploaded material (${ctx.runId})`;
    const body = { prompt, sessionId: pdf.sessionId };
    const withOptions = await generate(ctx, { ...body, options: OPTIONS(ctx) }, headers);
    const generation = refused(withOptions.started) ? await generate(ctx, body, headers) : withOptions;
    return { pdf, docx, withOptions, generation, optionsRefused: generation !== withOptions };
  });

const authorCourse = (ctx: Context) =>
  ctx.once('v2.ai.authorCourse', async () =>
    courseOf(ctx, (await authorGeneration(ctx)).generation, "the author's generation from files"),
  );

/** The course generated with the options; incomplete when the options (the kit's names) were refused. */
async function optionsCourse(ctx: Context) {
  const g = await authorGeneration(ctx);
  if (g.optionsRefused) {
    required(
      judge(ctx.v2, 'generateCourse', g.generation.started, [202]),
      'the generation from files without options',
    );
    throw new Incomplete(
      `the generation was refused with the options as the kit names them (${Object.keys(OPTIONS(ctx)).join(', ')}; seed 000 does not show their names) and accepted without them: answered ${g.withOptions.started.status} ${g.withOptions.started.text.slice(0, 200)}`,
    );
  }
  return authorCourse(ctx);
}

// --- Regenerations -------------------------------------------------------------------------------

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
            headers: w(ctx, 'listAuditLog'),
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
    offered(ctx, 'regenerate_lesson');
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
      headers: w(ctx, 'regenerateLesson'),
      body: { feedback: 'Shorter, with one example from the sea' },
    });
    const after =
      e.status < 300
        ? await ctx.v2.call('getCourse', { params: { courseId }, headers: w(ctx, 'getCourse') })
        : undefined;
    return { lesson, e, before, after };
  });

/**
 * A question of another type than single-choice (the kit's `questionType`), found in get_course of
 * the newest courses v1 lists (seed 001: 20 a page; read from the last page back).
 */
const otherTypeQuestion = (ctx: Context) =>
  ctx.once('v2.ai.otherTypeQuestion', async () => {
    const page = (offset: number) =>
      ctx.v1.call('listCourses', { headers: ctx.v1Headers(), ...(offset ? { query: { offset } } : {}) });
    const first = await page(0);
    required(judge(ctx.v1, 'listCourses', first, [200]), 'listing the courses through v1');
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
        const e = await ctx.v2.call('getCourse', { params: { courseId: id }, headers: w(ctx, 'getCourse') });
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

export const aiChecks: Check[] = [
  // --- Refusals first: they are sent with the write key while it has AI calls left --------------
  {
    id: 'v2.ai.generate.prompt-required',
    area,
    level: 'MUST',
    rules: ['000/generate.prompt-required'],
    title: "a generation request without a prompt (the seed's {prompt, options} without prompt) is refused",
    needs: { mcpScope: 'write' },
    run: async (ctx) => {
      offered(ctx, 'create_course_from_prompt');
      const e = await ctx.v2.callRaw('generateCourse', {
        headers: w(ctx, 'generateCourse'),
        body: { options: {} },
      });
      if (!refused(e))
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
      offered(ctx, 'refine_course', 'clone_course');
      const { id: courseId } = await clonedCourse(ctx);
      const e = await ctx.v2.callRaw('refineCourse', {
        params: { courseId },
        headers: w(ctx, 'refineCourse'),
        body: {},
      });
      if (!refused(e))
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
      offered(ctx, 'regenerate_question', 'clone_course');
      const found = await otherTypeQuestion(ctx);
      // A copy, so that a deployment that does not refuse changes no course of its own.
      const clone = await ctx.v2.call('cloneCourse', {
        headers: w(ctx, 'cloneCourse'),
        body: { courseId: found.courseId },
      });
      required(judge(ctx.v2, 'cloneCourse', clone, [201]), `copying course ${found.courseId}`);
      const copyId = readAssumed(clone, "the copy's id", (b: { id?: number }) => b.id);
      const read = () =>
        ctx.v2.call('getCourse', { params: { courseId: copyId }, headers: w(ctx, 'getCourse') });
      const before = await read();
      required(judge(ctx.v2, 'getCourse', before, [200]), `reading the copy ${copyId}`);
      const question = elementsOf(before)[found.index];
      if (question?.type !== 'question' || question.questionType !== found.questionType || !question.id)
        throw new Incomplete(
          `the copy of course ${found.courseId} has no ${found.questionType} question where the course has one`,
        );
      const e = await ctx.v2.callRaw('regenerateQuestion', {
        params: { questionId: question.id },
        headers: w(ctx, 'regenerateQuestion'),
        body: {},
      });
      if (e.status === 403)
        throw new Incomplete(
          `the write key may not edit its copy ${copyId} (403), which says nothing of the question's type`,
        );
      if (!refused(e))
        return fail(
          `regenerating the ${found.questionType} question ${question.id} answered ${e.status}`,
          evidenceOf(e, 'a refusal, 4xx (422): single-choice questions only'),
        );
      const verdict = judge(ctx.v2, 'regenerateQuestion', e, [422]);
      if (verdict.status !== 'pass') return verdict;
      const after = await read();
      required(judge(ctx.v2, 'getCourse', after, [200]), `reading the copy ${copyId} again`);
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
      offered(ctx, 'create_course_from_files');
      const sessionId = `${ctx.runId}-nothing-uploaded`;
      const g = await generate(ctx, {
        prompt: `Create a short course from the uploaded material (${ctx.runId})`,
        sessionId,
      });
      if (refused(g.started)) return judge(ctx.v2, 'generateCourse', g.started, [404]);
      const verdict = judge(ctx.v2, 'generateCourse', g.started, [202]);
      if (verdict.status !== 'pass') return verdict;
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

  // --- Uploads (no AI calls) ----------------------------------------------------------------------
  {
    id: 'v2.ai.upload.types-accepted',
    area,
    level: 'MUST',
    rules: ['000/upload.types-accepted'],
    title: 'a minimal valid PDF, DOC, DOCX, PNG, JPG, GIF and WebP file are each uploaded and processed',
    needs: writes,
    run: async (ctx) => {
      offered(ctx, 'upload_source_material');
      for (const file of SOURCE_FILES) {
        const text = `The ${file.type} source of ${ctx.runId} explains how a lighthouse guides ships at night.`;
        const e = await upload(ctx, file.make(text), file.name, file.mime);
        if (e.status >= 300)
          return fail(
            `a minimal ${file.type} file (${file.name}) was refused with ${e.status}`,
            evidenceOf(e, `2xx (201): seed 000 accepts ${file.type}`),
          );
        const uploaded = judge(ctx.v2, 'uploadSourceMaterial', e, [201]);
        if (uploaded.status !== 'pass') return uploaded;
        const processed = await ctx.v2.call('processSourceMaterial', {
          headers: w(ctx, 'processSourceMaterial'),
          body: uploadIds(e),
        });
        if (processed.status >= 300)
          return fail(
            `processing the uploaded ${file.type} file answered ${processed.status}`,
            evidenceOf(processed, `200 {sessionId, filename, chunkCount, message} of ${file.name}`),
          );
        const verdict = judge(ctx.v2, 'processSourceMaterial', processed, [200]);
        if (verdict.status !== 'pass') return verdict;
      }
      return pass();
    },
  },

  // --- Defaults: the write key's generation without options, from a German prompt ----------------
  {
    id: 'v2.ai.generate.default-module-count',
    area,
    level: 'MUST',
    rules: ['000/generate.module-count'],
    title: 'a course generated without a module count has 6 modules (read as lessons of its structure)',
    needs: writes,
    run: async (ctx) => {
      offered(ctx, 'create_course_from_prompt');
      const { course } = await courseOf(ctx, await promptGeneration(ctx), 'the generation without options');
      const modules = modulesOf(course);
      return modules === 6
        ? pass()
        : fail(
            `a course generated without a module count has ${modules} modules`,
            evidenceOf(course, '6 modules (lessons of structure.elements)'),
          );
    },
  },
  {
    id: 'v2.ai.generate.default-language',
    area,
    level: 'MUST',
    rules: ['000/generate.language-default'],
    title: 'a course generated from a German prompt without a language is in German (de)',
    needs: writes,
    run: async (ctx) => {
      offered(ctx, 'create_course_from_prompt');
      const { course } = await courseOf(ctx, await promptGeneration(ctx), 'the generation without options');
      const language = languageOf(course);
      return language === 'de'
        ? pass()
        : fail(
            `a course generated from a German prompt without a language is in ${language}`,
            evidenceOf(course, 'language de, the language of the prompt'),
          );
    },
  },

  // --- The author's generation from files, with options ---------------------------------------------
  {
    id: 'v2.ai.generate.from-files',
    area,
    level: 'MUST',
    rules: ['000/generate-from-files'],
    title:
      "generating from an upload session answers a queued job whose course draws on the files (it names the PDF's made-up lighthouse)",
    needs: asAuthor,
    run: async (ctx) => {
      const { generation } = await authorGeneration(ctx);
      const verdict = judge(ctx.v2, 'generateCourse', generation.started, [202]);
      if (verdict.status !== 'pass') return verdict;
      const { status } = generation.started.body as { status?: string };
      if (status !== 'queued')
        return fail(`the new job's status is ${status}`, evidenceOf(generation.started, 'status queued'));
      const { courseId, course } = await authorCourse(ctx);
      return mentions(course, FILES.pdf.word)
        ? pass()
        : fail(
            `course ${courseId}, generated from the session, does not mention ${FILES.pdf.word}, the lighthouse of the uploaded PDF`,
            evidenceOf(course, `a course that mentions ${FILES.pdf.word}`),
          );
    },
  },
  {
    id: 'v2.ai.upload.session-reuse',
    area,
    level: 'MUST',
    rules: ['000/upload.session-reuse'],
    title:
      'a second file uploaded with the first one’s sessionId joins that session, and the course generated from it draws on both files',
    needs: asAuthor,
    run: async (ctx) => {
      const { pdf, docx } = await authorGeneration(ctx);
      if (docx.sessionId !== pdf.sessionId)
        return fail(
          `the DOCX uploaded with sessionId ${pdf.sessionId} was processed into session ${docx.sessionId}`,
          evidenceOf(docx.processed, `sessionId ${pdf.sessionId}`),
        );
      const { courseId, course } = await authorCourse(ctx);
      const missing = [FILES.pdf, FILES.docx].filter((f) => !mentions(course, f.word));
      return missing.length === 0
        ? pass()
        : fail(
            `course ${courseId}, generated from the session of both files, does not mention ${missing.map((f) => `${f.word} (${f.name})`).join(' or ')}`,
            evidenceOf(course, `a course that mentions ${FILES.pdf.word} and ${FILES.docx.word}`),
          );
    },
  },
  {
    id: 'v2.ai.generate.option-title',
    area,
    level: 'MUST',
    rules: ['000/generate.title'],
    title: 'a course generated with a title is named so (its name through v1)',
    needs: { ...asAuthor, apiKey: true },
    run: async (ctx) => {
      const { courseId } = await optionsCourse(ctx);
      const { title } = OPTIONS(ctx);
      const e = await ctx.v1.call('getCourse', { params: { courseId }, headers: ctx.v1Headers() });
      const verdict = judge(ctx.v1, 'getCourse', e, [200]);
      if (verdict.status !== 'pass') return verdict;
      const name = (e.body as { name: string }).name;
      return name === title
        ? pass()
        : fail(
            `the course generated with the title "${title}" is named "${name}"`,
            evidenceOf(e, `name ${title}`),
          );
    },
  },
  {
    id: 'v2.ai.generate.option-module-count',
    area,
    level: 'MUST',
    rules: ['000/generate.module-count-option'],
    title: 'a course generated with a module count of 2 has 2 modules (read as lessons of its structure)',
    needs: asAuthor,
    run: async (ctx) => {
      const { course } = await optionsCourse(ctx);
      const modules = modulesOf(course);
      return modules === OPTIONS(ctx).moduleCount
        ? pass()
        : fail(
            `a course generated with a module count of 2 has ${modules} modules`,
            evidenceOf(course, '2 modules (lessons of structure.elements)'),
          );
    },
  },
  {
    id: 'v2.ai.generate.option-language',
    area,
    level: 'MUST',
    rules: ['000/generate.language'],
    title: 'a course generated from an English prompt with the language fr is in French',
    needs: asAuthor,
    run: async (ctx) => {
      const { course } = await optionsCourse(ctx);
      const language = languageOf(course);
      return language === OPTIONS(ctx).language
        ? pass()
        : fail(
            `a course generated with the language fr is in ${language}`,
            evidenceOf(course, 'language fr, the one asked for'),
          );
    },
  },

  // --- Regenerations ------------------------------------------------------------------------------
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
      const verdict = judge(ctx.v2, 'regenerateQuestion', e, [200]);
      if (verdict.status !== 'pass') return verdict;
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
      w(ctx, 'listAuditLog');
      const { question, e, auditBefore, auditAfter } = await regeneratedQuestion(ctx);
      if (e.status >= 300)
        throw new Incomplete(
          `the regeneration of question ${question.id} answered ${e.status} (v2.ai.regenerate-question.result judges it): no previous content to keep`,
        );
      if (!auditBefore || !auditAfter) throw new Incomplete('the audit log was not read');
      for (const a of [auditBefore, auditAfter]) {
        const verdict = judge(ctx.v2, 'listAuditLog', a, [200]);
        if (verdict.status !== 'pass') return verdict;
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
      const verdict = judge(ctx.v2, 'regenerateLesson', e, [200]);
      if (verdict.status !== 'pass') return verdict;
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
      required(judge(ctx.v2, 'getCourse', after, [200]), 'reading the course after the regeneration');
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
