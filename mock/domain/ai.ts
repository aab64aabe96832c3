// AI course generation and refinement (seed 000, "AI tools", "Generation job", "Limits"). The
// generator itself is ../ai/generate.ts; here are the rules: upload sessions, jobs that finish after
// 10–30 s of virtual time, append-only refinement, the shared daily quota.
import { generateCourse, lessonBrief, refinement, rewordQuestion, seeded } from '../ai/generate.ts';
import { requireCourseEdit } from './agent-writes.ts';
import { audit } from './audit.ts';
import { CLOCK_MAX, toIso, utcDay } from './clock.ts';
import { courseById } from './courses.ts';
import { invalid, notFound, unprocessable } from './errors.ts';
import type {
  AiSettings,
  Course,
  CourseElement,
  GenerationJob,
  LanguageCode,
  LessonElement,
  QuestionElement,
  UploadedFile,
  User,
} from './model.ts';
import type { TenantState } from './tenant-state.ts';

/** Seed 000, "Limits": 5 calls per key per day; 50 per tenant per day; each call counts as one. */
export const AI_CALLS_PER_KEY = 5;
export const AI_CALLS_PER_TENANT = 50;
/** Seed 000: "Default module count for generation: 6". */
export const DEFAULT_MODULE_COUNT = 6;

// Uploads.

export interface UploadInput {
  sessionId?: string;
  filename: string;
  mimeType: UploadedFile['mimeType'];
  size: number;
  chunks: string[];
  /** The most characters of uploaded text the tenant keeps (x-extraction-limits). */
  keepCharacters?: number;
}

export function recordUpload(t: TenantState, input: UploadInput, at: number) {
  // A session is made by the first upload; a later upload names it to add a file to it.
  if (input.sessionId !== undefined && !t.uploads.has(input.sessionId))
    throw notFound(`upload session ${input.sessionId}`);
  const sessionId = input.sessionId ?? `ses_${t.nextId('session')}`;
  let session = t.uploads.get(sessionId);
  if (!session) {
    session = { id: sessionId, createdAt: at, files: [] };
    t.uploads.set(sessionId, session);
  }
  const file = {
    id: `file_${t.nextId('file')}`,
    filename: input.filename,
    mimeType: input.mimeType,
    size: input.size,
    chunks: input.chunks,
    processed: false,
  };
  session.files.push(file);
  if (input.keepCharacters !== undefined) forgetOldestText(t, input.keepCharacters, file.id);
  return { sessionId, file };
}

/**
 * Keeps the tenant's uploaded text within `limit` characters: the oldest files go first, and a
 * session left without files goes with them. The file just uploaded stays.
 */
function forgetOldestText(t: TenantState, limit: number, keep: string): void {
  const size = (f: { chunks: string[] }) => f.chunks.reduce((sum, c) => sum + c.length, 0);
  let total = 0;
  for (const session of t.uploads.values()) for (const f of session.files) total += size(f);
  for (const session of t.uploads.values()) {
    while (total > limit && session.files[0] && session.files[0].id !== keep) {
      total -= size(session.files.shift() as { chunks: string[] });
    }
    if (session.files.length === 0) t.uploads.delete(session.id);
    if (total <= limit) return;
  }
}

export function processUpload(t: TenantState, sessionId: string, fileId: string) {
  const session = t.uploads.get(sessionId);
  const file = session?.files.find((f) => f.id === fileId);
  if (!session || !file) throw notFound(`file ${fileId} in session ${sessionId}`);
  file.processed = true;
  const count = file.chunks.length;
  return {
    sessionId,
    filename: file.filename,
    chunkCount: count,
    message: count
      ? `Extracted and embedded ${count} chunk(s) of ${file.filename}; generate a course with this sessionId.`
      : `${file.filename} holds no extractable text (images are not read); it is kept in the session.`,
  };
}

// Quota.

function usageToday(t: TenantState, now: number) {
  if (t.aiUsage.day !== utcDay(now)) t.aiUsage = { day: utcDay(now), perKey: {}, tenant: 0 };
  return t.aiUsage;
}

/** Null when the call may go ahead, else why not and when the day's quota resets. */
export function aiQuotaRefusal(
  t: TenantState,
  keyId: string,
  now: number,
): { message: string; retryAfter: number } | null {
  const day = utcDay(now);
  const usage = t.aiUsage.day === day ? t.aiUsage : { perKey: {} as Record<string, number>, tenant: 0 };
  const resetsAt = (day + 1) * 86_400;
  const retryAfter = resetsAt - now;
  if ((usage.perKey[keyId] ?? 0) >= AI_CALLS_PER_KEY) {
    return {
      message: `Daily AI quota used (${AI_CALLS_PER_KEY} calls per key); resets at ${toIso(resetsAt)}, retry after ${retryAfter}s.`,
      retryAfter,
    };
  }
  if (usage.tenant >= AI_CALLS_PER_TENANT) {
    return {
      message: `Daily AI quota of the workspace used (${AI_CALLS_PER_TENANT} calls); resets at ${toIso(resetsAt)}, retry after ${retryAfter}s.`,
      retryAfter,
    };
  }
  return null;
}

export function consumeAiQuota(t: TenantState, keyId: string, at: number): void {
  const usage = usageToday(t, at);
  usage.perKey[keyId] = (usage.perKey[keyId] ?? 0) + 1;
  usage.tenant++;
}

// Generation jobs.

export interface GenerateInput {
  prompt: string;
  sessionId?: string;
  options?: { moduleCount?: number; language?: LanguageCode; title?: string };
}

export function createJob(t: TenantState, actor: User, input: GenerateInput, at: number): GenerationJob {
  if (input.sessionId !== undefined && !t.uploads.has(input.sessionId))
    throw notFound(`upload session ${input.sessionId}`);
  const { generationMinSeconds: min, generationMaxSeconds: max } = t.ai;
  const duration = min + Math.floor(seeded(`${input.prompt}\n${t.seq.job ?? 0}`)() * (max - min + 1));
  const failWith = t.ai.failNextJobs > 0 ? t.ai.failureMessage : null;
  if (failWith) t.ai.failNextJobs--;
  const job: GenerationJob = {
    id: `job_${t.nextId('job')}`,
    status: 'queued',
    createdAt: at,
    // The clock stops at its maximum (openapi/admin ClockTime): a job due later is due then.
    completesAt: Math.min(at + duration, CLOCK_MAX),
    userId: actor.id,
    prompt: input.prompt,
    sessionId: input.sessionId ?? null,
    options: {
      moduleCount: input.options?.moduleCount ?? DEFAULT_MODULE_COUNT,
      language: input.options?.language,
      title: input.options?.title,
    },
    failWith,
    result: null,
    error: null,
  };
  t.jobs.set(job.id, job);
  audit(
    t,
    { userId: actor.id },
    at,
    'course.generate',
    { type: 'job', id: job.id },
    { prompt: input.prompt, sessionId: job.sessionId },
  );
  return job;
}

export function jobById(t: TenantState, jobId: string): GenerationJob {
  const job = t.jobs.get(jobId);
  if (!job) throw notFound(`generation job ${jobId}`);
  return job;
}

export const jobIsDue = (job: GenerationJob, now: number) =>
  job.status === 'queued' && now >= job.completesAt;

/** A job's place in the order jobs finish: by the time they complete, then by the order they were made. */
const completionOrder = (a: GenerationJob, b: GenerationJob) =>
  a.completesAt - b.completesAt || a.createdAt - b.createdAt || jobNumber(a) - jobNumber(b);
const jobNumber = (job: GenerationJob) => Number(job.id.slice('job_'.length)) || 0;

/** When the earliest queued job of these tenants comes due; Infinity when none waits. */
export function nextJobDue(tenants: Iterable<TenantState>): number {
  let next = Number.POSITIVE_INFINITY;
  for (const t of tenants)
    for (const job of t.jobs.values()) if (job.status === 'queued') next = Math.min(next, job.completesAt);
  return next;
}

/**
 * The jobs of these tenants whose time has come at `now`, in the order they finish (seed 000, AI
 * tools: generation runs in the background): settled in this order, the job that finishes first
 * makes the course with the lower id, whenever and by whom the jobs are read.
 */
export function dueJobs(tenants: Iterable<TenantState>, now: number): { tenantId: string; jobId: string }[] {
  const due: { tenantId: string; job: GenerationJob }[] = [];
  for (const t of tenants)
    for (const job of t.jobs.values()) if (jobIsDue(job, now)) due.push({ tenantId: t.id, job });
  return due
    .sort((a, b) => completionOrder(a.job, b.job))
    .map(({ tenantId, job }) => ({ tenantId, jobId: job.id }));
}

/** Moves a due job to its final state; a completed job has made its course (a draft of the job's user). */
export function settleJob(t: TenantState, jobId: string, now: number): GenerationJob {
  const job = jobById(t, jobId);
  if (!jobIsDue(job, now)) return job;
  if (job.failWith) {
    job.status = 'failed';
    job.error = { message: job.failWith };
    return job;
  }
  const chunks = job.sessionId ? (t.uploads.get(job.sessionId)?.files ?? []).flatMap((f) => f.chunks) : [];
  const generated = generateCourse({
    prompt: job.prompt,
    chunks,
    moduleCount: job.options.moduleCount,
    language: job.options.language,
    title: job.options.title,
  });
  const elements: CourseElement[] = generated.modules.flatMap((m) => [
    { id: t.nextId('element'), type: 'lesson' as const, ...m.lesson },
    {
      id: t.nextId('element'),
      type: 'question' as const,
      title: m.question.title,
      questionType: 'single' as const,
      options: m.question.options,
    },
  ]);
  const course: Course = {
    id: t.nextId('course'),
    name: generated.name,
    annotation: generated.annotation,
    description: generated.description,
    isDraft: true,
    createdAt: job.completesAt,
    updatedAt: job.completesAt,
    publishedAt: null,
    ownerId: job.userId,
    language: generated.language,
    sharedWith: [],
    attachedFiles: [],
    settings: { sequential: true, hasCertificate: false, certificateValidDays: null, passingScore: 60 },
    structure: {
      elements,
      transitions: elements.slice(1).map((e, i) => ({ from: elements[i]?.id ?? e.id, to: e.id })),
    },
    experts: [],
  };
  t.addCourse(course);
  job.status = 'completed';
  job.result = { courseId: course.id };
  return job;
}

// Refinement.

/** refine_course: append-only — new elements and transitions; nothing existing changes. */
export function refineCourse(t: TenantState, actor: User, courseId: number, feedback: string, at: number) {
  const course = courseById(t, courseId);
  requireCourseEdit(actor, course);
  const { elements, transitions } = course.structure;
  const added = refinement(course.name, feedback, elements.length);
  const lesson: LessonElement = { id: t.nextId('element'), type: 'lesson', ...added.lesson };
  const question: QuestionElement = {
    id: t.nextId('element'),
    type: 'question',
    title: added.question.title,
    questionType: 'single',
    options: added.question.options,
  };
  const last = elements.at(-1);
  elements.push(lesson, question);
  const newTransitions = [
    ...(last ? [{ from: last.id, to: lesson.id }] : []),
    { from: lesson.id, to: question.id },
  ];
  transitions.push(...newTransitions);
  course.updatedAt = at;
  audit(
    t,
    { userId: actor.id },
    at,
    'course.refine',
    { type: 'course', id: String(courseId) },
    { feedback, elementsAdded: 2 },
  );
  return {
    courseId,
    elementsAdded: 2,
    transitionsAdded: newTransitions.length,
    message: `Added a lesson and a question on "${feedback}" to ${course.name}.`,
  };
}

function elementById(t: TenantState, id: number): { course: Course; element: CourseElement } | null {
  for (const course of t.courses.values()) {
    const element = course.structure.elements.find((e) => e.id === id);
    if (element) return { course, element };
  }
  return null;
}

/** regenerate_question: single-choice only; the previous text and options are kept in the audit log. */
export function regenerateQuestion(
  t: TenantState,
  actor: User,
  questionId: number,
  feedback: string | undefined,
  at: number,
) {
  const found = elementById(t, questionId);
  if (found?.element.type !== 'question') throw notFound(`question ${questionId}`);
  const { course, element } = found as { course: Course; element: QuestionElement };
  requireCourseEdit(actor, course);
  if (element.questionType !== 'single') {
    throw unprocessable(
      'QUESTION_NOT_SINGLE_CHOICE',
      `Question ${questionId} is not single-choice; only single-choice questions can be regenerated.`,
    );
  }
  const previous = { text: element.title, options: element.options };
  const next = rewordQuestion(element.title, element.options, feedback);
  element.title = next.text;
  element.options = next.options;
  course.updatedAt = at;
  audit(
    t,
    { userId: actor.id },
    at,
    'question.regenerate',
    { type: 'question', id: String(questionId) },
    { courseId: course.id, previous, feedback: feedback ?? null },
  );
  return {
    questionId,
    text: next.text,
    options: next.options,
    message: 'The question was reworded; the previous version is in the audit log.',
  };
}

/** regenerate_lesson: answers a new brief; the lesson's pages stay as they are. */
export function regenerateLesson(
  t: TenantState,
  actor: User,
  lessonId: number,
  feedback: string | undefined,
  at: number,
) {
  const found = elementById(t, lessonId);
  if (found?.element.type !== 'lesson') throw notFound(`lesson ${lessonId}`);
  const { course, element } = found as { course: Course; element: LessonElement };
  requireCourseEdit(actor, course);
  const brief = lessonBrief(course.name, element.title, element.content, feedback);
  audit(
    t,
    { userId: actor.id },
    at,
    'lesson.regenerate',
    { type: 'lesson', id: String(lessonId) },
    { courseId: course.id, brief },
  );
  return { lessonId, brief };
}

export function updateAiSettings(t: TenantState, patch: Partial<AiSettings>): AiSettings {
  const next = { ...t.ai, ...patch };
  if (next.generationMinSeconds > next.generationMaxSeconds) {
    throw invalid('generationMinSeconds must not exceed generationMaxSeconds', {
      generationMinSeconds: ['must not exceed generationMaxSeconds'],
    });
  }
  t.ai = next;
  return next;
}
