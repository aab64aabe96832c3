// Departures of the AI checks (conformance/checks/v2/ai-*.ts): generation options and defaults,
// generation from files, every upload type, the refusals, and both regenerate tools.
import type { Departure, Json } from './kit.ts';
import { accept, dropFields, onAnswer, onRequest, refuse, V2, V2_COURSE, V2_REFINE } from './kit.ts';

const GENERATE = `${V2}/ai/courses/generate`;
const UPLOAD = `${V2}/chat/source-materials/upload`;
const REGENERATE_QUESTION = /^\/api\/v2\/ai\/questions\/\d+\/regenerate$/;
const REGENERATE_LESSON = /^\/api\/v2\/ai\/lessons\/\d+\/regenerate$/;
const idIn = (path: string) => Number(path.split('/')[4]);

export const AI_DEPARTURES: Departure[] = [
  // --- Generation options and defaults ---
  {
    name: 'generation options dropped',
    seed: '000 create_course_from_prompt: "<module count> integer optional default 6; <language> string optional, ISO 639-1; <title> string optional override"',
    catches: 'v2.ai.generate.option-title',
    alsoFails: ['v2.ai.generate.option-module-count', 'v2.ai.generate.option-language'],
    rewrites: () => [dropFields('POST', GENERATE, 'options')],
  },
  {
    name: 'generation title ignored',
    seed: '000 create_course_from_prompt: "<title> string optional override"',
    catches: 'v2.ai.generate.option-title',
    rewrites: () => [onRequest('POST', GENERATE, (req) => void delete (req.json as Json)?.options?.title)],
  },
  {
    name: 'generation without a module count makes 5 modules',
    seed: '000 Limits: "Default module count for generation | 6"',
    catches: 'v2.ai.generate.default-module-count',
    rewrites: () => [
      onRequest('POST', GENERATE, (req) => {
        const body = req.json as Json;
        if (body && body.options?.moduleCount === undefined)
          body.options = { ...body.options, moduleCount: 5 };
      }),
    ],
  },
  {
    name: 'generation without a language writes English',
    seed: '000 create_course_from_prompt: "<language> string optional, ISO 639-1 (default: language of the prompt)"',
    catches: 'v2.ai.generate.default-language',
    rewrites: () => [
      onRequest('POST', GENERATE, (req) => {
        const body = req.json as Json;
        if (body && body.options?.language === undefined) body.options = { ...body.options, language: 'en' };
      }),
    ],
  },
  {
    name: 'generation without a prompt makes a course of a default prompt',
    seed: '000 create_course_from_prompt: "prompt string required"',
    catches: 'v2.ai.generate.prompt-required',
    rewrites: () => [
      onRequest('POST', GENERATE, (req) => {
        const body = req.json as Json;
        if (body && body.prompt === undefined) body.prompt = 'A short introductory course';
      }),
    ],
  },

  // --- Generation from files ---
  {
    name: 'generation from files ignores the session',
    seed: '000 create_course_from_files: "POST /api/v2/ai/courses/generate, body {prompt, sessionId, options}"',
    catches: 'v2.ai.generate.from-files',
    alsoFails: ['v2.ai.upload.session-reuse'],
    rewrites: () => [dropFields('POST', GENERATE, 'sessionId')],
  },
  {
    name: 'a file added to a session is processed into a session of its own',
    seed: '000 Upload session: "A sessionId groups uploaded source files into one generation context"; upload_source_material: "reuse to bundle files"',
    catches: 'v2.ai.upload.session-reuse',
    rewrites: () => {
      const sessions = new Set<string>();
      return [
        onAnswer('POST', `${V2}/chat/source-materials/process`, (b) => {
          if (sessions.has(b.sessionId)) b.sessionId = `${b.sessionId}_2`;
          else sessions.add(b.sessionId);
        }),
      ];
    },
  },
  {
    name: 'a session nothing was uploaded to generates from the prompt alone',
    seed: '000 create_course_from_files: "upload_source_material must have been called earlier in the conversation"',
    catches: 'v2.ai.generate.from-files.needs-upload',
    rewrites: () => {
      const sessions = new Set<string>();
      return [
        onAnswer('POST', UPLOAD, (b) => void sessions.add(b.sessionId)),
        onRequest('POST', GENERATE, (req) => {
          const body = req.json as Json;
          if (typeof body?.sessionId === 'string' && !sessions.has(body.sessionId)) delete body.sessionId;
        }),
      ];
    },
  },

  // --- Upload types ---
  {
    name: 'a DOCX and a WebP refused as unsupported (415)',
    seed: '000 Upload constraints: "PDF, DOC, DOCX, PNG, JPG, GIF, WebP"',
    catches: 'v2.ai.upload.types-accepted',
    rewrites: () => [
      refuse(
        'POST',
        UPLOAD,
        (req) => req.body.includes('word/document.xml') || req.body.includes('WEBPVP8'),
        415,
        'Only PDF, DOC, PNG, JPG and GIF files are supported.',
        'UNSUPPORTED_FILE_TYPE',
      ),
    ],
  },

  // --- Refinement ---
  {
    name: 'refining without feedback accepted',
    seed: '000 refine_course: "feedback string required (what to add)"',
    catches: 'v2.ai.refine.feedback-required',
    rewrites: () => [
      accept('POST', V2_REFINE, 400, (req) => ({
        courseId: idIn(req.path),
        elementsAdded: 0,
        transitionsAdded: 0,
        message: 'Nothing to add.',
      })),
    ],
  },

  // --- regenerate_question ---
  {
    name: 'regenerating a multiple-choice question accepted',
    seed: '000 regenerate_question: "questionId integer required (single-choice questions only)"',
    catches: 'v2.ai.regenerate-question.single-choice-only',
    rewrites: () => [
      accept('POST', REGENERATE_QUESTION, 422, (req) => ({
        questionId: idIn(req.path),
        text: 'Which of these apply?',
        options: [
          { text: 'This one', isCorrect: true },
          { text: 'That one', isCorrect: true },
        ],
        message: 'The question was reworded.',
      })),
    ],
  },
  {
    name: 'regenerate_question answers without options',
    seed: '000 regenerate_question: "{questionId, text, options, message}; same concept, new text and options"',
    catches: 'v2.ai.regenerate-question.result',
    rewrites: () => [onAnswer('POST', REGENERATE_QUESTION, (b) => void delete b.options)],
  },
  {
    name: 'a regenerated question’s previous content not in the audit log',
    seed: '000 regenerate_question: "previous content kept in the audit log"',
    catches: 'v2.ai.regenerate-question.audit',
    rewrites: () => [
      onAnswer('GET', `${V2}/audit`, (b) => {
        b.entries = b.entries.filter((e: Json) => e.action !== 'question.regenerate');
      }),
    ],
  },

  // --- regenerate_lesson ---
  {
    name: 'regenerate_lesson answers a brief without a target audience',
    seed: '000 regenerate_lesson: "{lessonId, brief} where brief has topic, title, description, keyPoints, targetAudience"',
    catches: 'v2.ai.regenerate-lesson.brief',
    rewrites: () => [onAnswer('POST', REGENERATE_LESSON, (b) => void delete b.brief?.targetAudience)],
  },
  {
    name: 'regenerate_lesson retitles the lesson',
    seed: '000 regenerate_lesson: "existing pages are not touched"',
    catches: 'v2.ai.regenerate-lesson.pages-untouched',
    rewrites: () => {
      const regenerated = new Map<number, string>();
      return [
        onAnswer('POST', REGENERATE_LESSON, (b) => void regenerated.set(b.lessonId, b.brief?.title)),
        onAnswer('GET', V2_COURSE, (b) => {
          for (const e of b.structure?.elements ?? [])
            if (regenerated.has(e.id)) e.title = regenerated.get(e.id) ?? `${e.title} (new)`;
        }),
      ];
    },
  },
];
