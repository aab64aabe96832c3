// AI generation (seed 000, "AI tools", "Upload constraints", "Limits"): every upload type seed 000
// accepts is uploaded and processed; a course generated without options has the default module count
// (6) and the prompt's language; the author's generation from an upload session of two files draws
// on both; a generation with options honours its title, module count and language. The options are
// seed 000's `<module count>`, `<language>`, `<title>` inside the documented body `{prompt,
// sessionId, options}`; their names (`moduleCount`, `language`, `title`) are the kit's. A deployment
// that refuses them (4xx) makes the option checks incomplete — it may call them otherwise — and the
// generation from files is then retried without options; one that accepts them and does not honour
// them fails: accepting an option means honouring it. The title is read by value where seed 001
// names it (the course's `name` through v1 GET /courses/{id}; both APIs serve one platform and share
// course ids); how modules and the language appear in a course the seeds do not show, so they are
// read through the kit's names (the lessons of `structure.elements`, one per module; `language`), and
// a deployment naming them otherwise makes those checks incomplete. A generation job that fails
// (seed 000: `failed` with `error.message`) is no departure; the checks that need its course are
// then incomplete. Run with --allow-writes, the write key and the author's key (--role-key
// author=KEY); how the AI calls are spent: ./ai-refusals.ts.
import { evidenceOf, fail, pass } from '../../context.ts';
import { SOURCE_FILES } from '../../fixtures.ts';
import type { Exchange } from '../../http.ts';
import type { Check } from '../../types.ts';
import { keyHeaders } from '../common/discover.ts';
import {
  authorCourse,
  authorGeneration,
  courseOf,
  elementsOf,
  FILES,
  OPTIONS,
  optionsCourse,
  promptGeneration,
  upload,
  uploadIds,
} from '../common/generation.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { requireWriteTools } from '../common/keys.ts';

const area = 'v2.ai';
/** A request the write key makes that changes the deployment when it is accepted. */
const writes = { mcpScope: 'write' as const, writes: true };
const asAuthor = { roles: ['author'], writes: true };

/** Modules, in the kit's names: each module is a lesson of `structure.elements` (and a question). */
const modulesOf = (e: Exchange) => elementsOf(e).filter((x) => x.type === 'lesson').length;

const languageOf = (e: Exchange) =>
  readAssumed(e, "the course's language", (b: { language?: string }) => b.language);

const mentions = (e: Exchange, word: string) => e.text.toLowerCase().includes(word.toLowerCase());

export const aiGenerationChecks: Check[] = [
  {
    id: 'v2.ai.upload.types-accepted',
    area,
    level: 'MUST',
    rules: ['000/upload.types-accepted'],
    title: 'a minimal valid PDF, DOC, DOCX, PNG, JPG, GIF and WebP file are each uploaded and processed',
    needs: writes,
    run: async (ctx) => {
      requireWriteTools(ctx, 'upload_source_material');
      for (const file of SOURCE_FILES) {
        const text = `The ${file.type} source of ${ctx.runId} explains how a lighthouse guides ships at night.`;
        const e = await upload(ctx, file.make(text), file.name, file.mime);
        if (e.status >= 300)
          return fail(
            `a minimal ${file.type} file (${file.name}) was refused with ${e.status}`,
            evidenceOf(e, `2xx (201): seed 000 accepts ${file.type}`),
          );
        mustPass(judge(ctx.v2, 'uploadSourceMaterial', e, [201]));
        const processed = await ctx.v2.call('processSourceMaterial', {
          headers: keyHeaders(ctx, 'processSourceMaterial'),
          body: uploadIds(e),
        });
        if (processed.status >= 300)
          return fail(
            `processing the uploaded ${file.type} file answered ${processed.status}`,
            evidenceOf(processed, `200 {sessionId, filename, chunkCount, message} of ${file.name}`),
          );
        mustPass(judge(ctx.v2, 'processSourceMaterial', processed, [200]));
      }
      return pass();
    },
  },
  {
    id: 'v2.ai.generate.default-module-count',
    area,
    level: 'MUST',
    rules: ['000/generate.module-count'],
    title: 'a course generated without a module count has 6 modules (read as lessons of its structure)',
    needs: writes,
    run: async (ctx) => {
      requireWriteTools(ctx, 'create_course_from_prompt');
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
      requireWriteTools(ctx, 'create_course_from_prompt');
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
      mustPass(judge(ctx.v2, 'generateCourse', generation.started, [202]));
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
      mustPass(judge(ctx.v1, 'getCourse', e, [200]));
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
];
