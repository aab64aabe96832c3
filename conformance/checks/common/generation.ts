// The AI side of v2 as the write and AI checks drive it (seed 000, "AI tools"): the run's copy of a
// course, uploads of source files, generations and their jobs, and the courses they make read back
// with get_course. Each generation is memoised per run, since it spends one of a key's AI calls
// (seed 000, Limits: 5 a day per key; ai-*.ts says how the run spends them).
import { type Context, evidenceOf } from '../../context.ts';
import { minimalDocx, minimalPdf } from '../../fixtures.ts';
import type { Exchange } from '../../http.ts';
import { Departure, Incomplete, Skipped } from '../../outcomes.ts';
import { keyHeaders, v2CourseId } from './discover.ts';
import { judge, mustPass, readAssumed } from './judge.ts';

/** 4xx: the deployment refused the request. */
export const is4xx = (e: Exchange) => e.status >= 400 && e.status < 500;

/** An unpublished copy of a course, made once per run; the refinements act on it, not on real content. */
export const clonedCourse = (ctx: Context) =>
  ctx.once('v2.clonedCourse', async () => {
    const source = await v2CourseId(ctx);
    const e = await ctx.v2.call('cloneCourse', {
      headers: keyHeaders(ctx, 'cloneCourse'),
      body: { courseId: source },
    });
    mustPass(judge(ctx.v2, 'cloneCourse', e, [201]));
    return { e, source, id: readAssumed(e, "the copy's id", (b: { id?: number }) => b.id) };
  });

// --- Uploads ---------------------------------------------------------------------------------------

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
    headers: options.headers ?? keyHeaders(ctx, 'uploadSourceMaterial'),
    body: form,
  });
};

/** The ids of an upload (the kit's names: the seed shows the processed result only). */
export const uploadIds = (e: Exchange) =>
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
  mustPass(judge(ctx.v2, 'uploadSourceMaterial', uploaded, [201]), `uploading ${name}`);
  const processed = await ctx.v2.call('processSourceMaterial', {
    headers: options.headers ?? keyHeaders(ctx, 'processSourceMaterial'),
    body: uploadIds(uploaded),
  });
  mustPass(judge(ctx.v2, 'processSourceMaterial', processed, [200]), `processing ${name}`);
  return { uploaded, processed, sessionId: (processed.body as { sessionId: string }).sessionId };
}

// --- Generations -----------------------------------------------------------------------------------

/** Polls a generation job until it ends (or 90 s pass); the key is the write key's unless given. */
async function pollJob(
  ctx: Context,
  jobId: string,
  headers: Record<string, string> = keyHeaders(ctx, 'getGenerationJob'),
): Promise<{ status: string; e: Exchange }> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const e = await ctx.v2.call('getGenerationJob', { params: { jobId }, headers });
    mustPass(judge(ctx.v2, 'getGenerationJob', e, [200]));
    const status = (e.body as { status?: string })?.status ?? '';
    // Seed 000: queued, then completed or failed; intermediate states are not shown, so any other
    // value is taken as still running.
    if (status === 'completed' || status === 'failed' || Date.now() > deadline) return { status, e };
    // Seed 000: "poll every 3-5 seconds".
    await new Promise((r) => setTimeout(r, ctx.config.pollIntervalMs ?? 3000));
  }
}

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
  headers: Record<string, string> = keyHeaders(ctx, 'generateCourse'),
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

/** The course of a generation, read with get_course (write key); incomplete when the job failed. */
export async function courseOf(ctx: Context, g: Generation, what: string) {
  mustPass(judge(ctx.v2, 'generateCourse', g.started, [202]), what);
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
    headers: keyHeaders(ctx, 'getCourse'),
  });
  mustPass(judge(ctx.v2, 'getCourse', course, [200]), `${what}: reading course ${g.courseId}`);
  return { courseId: g.courseId, course };
}

export type Element = {
  id?: number;
  type?: string;
  title?: string;
  questionType?: string;
  options?: unknown;
};

/** The elements of a course in the kit's names (`structure.elements`); incomplete when named otherwise. */
export const elementsOf = (e: Exchange) =>
  readAssumed(
    e,
    "the course's elements (structure.elements)",
    (b: { structure?: { elements?: Element[] } }) =>
      Array.isArray(b.structure?.elements) && b.structure.elements.some((x) => typeof x?.type === 'string')
        ? b.structure.elements
        : undefined,
  );

// --- The author's generation from files, with options ---------------------------------------------

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Two made-up proper names, one per file: a course built from the files repeats them, a prompt alone cannot. */
export const FILES = {
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

/** The generation options, in the kit's names (seed 000: `<module count>`, `<language>`, `<title>`). */
export const OPTIONS = (ctx: Context) => ({
  moduleCount: 2,
  language: 'fr',
  title: `Gardiens de phare ${ctx.runId}`,
});

/** The author's key as headers, when it is offered these tools (skipped otherwise, naming the flag). */
export function authorKey(ctx: Context, ...tools: string[]): Record<string, string> {
  const key = ctx.roleKey('author');
  if (!key) throw new Skipped('no key of an author given (--role-key author=KEY)');
  const missing = tools.filter((t) => !key.tools.includes(t));
  if (missing.length)
    throw new Skipped(`the author key given is not offered ${missing.join(', ')} (--role-key author=KEY)`);
  return { 'x-mcp-key': key.key };
}

/**
 * The author uploads a PDF, then a DOCX into the same session (reusing its `sessionId`), and generates
 * a course from them with options; refused options are dropped and the generation retried (a refusal
 * costs no AI call).
 */
export const authorGeneration = (ctx: Context) =>
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
    const generation = is4xx(withOptions.started) ? await generate(ctx, body, headers) : withOptions;
    return { pdf, docx, withOptions, generation, optionsRefused: generation !== withOptions };
  });

/** The course of the author's generation from files. */
export const authorCourse = (ctx: Context) =>
  ctx.once('v2.ai.authorCourse', async () =>
    courseOf(ctx, (await authorGeneration(ctx)).generation, "the author's generation from files"),
  );

/** The course generated with the options; incomplete when the options (the kit's names) were refused. */
export async function optionsCourse(ctx: Context) {
  const g = await authorGeneration(ctx);
  if (g.optionsRefused) {
    mustPass(
      judge(ctx.v2, 'generateCourse', g.generation.started, [202]),
      'the generation from files without options',
    );
    throw new Incomplete(
      `the generation was refused with the options as the kit names them (${Object.keys(OPTIONS(ctx)).join(', ')}; seed 000 does not show their names) and accepted without them: answered ${g.withOptions.started.status} ${g.withOptions.started.text.slice(0, 200)}`,
    );
  }
  return authorCourse(ctx);
}
