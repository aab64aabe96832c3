// The mock's course generator (seed 000, AI tools). No model runs here: content is derived from the
// prompt and the uploaded text by fixed rules, so the same input always gives the same course
// (docs/adr-0002: deterministic), and the options the seed names — module count, language, title — are
// honoured.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as Tinyld from 'tinyld';
import type { LanguageCode } from '../domain/model.ts';

export interface GenerationInput {
  prompt: string;
  /** Chunks of the uploaded source material, in upload order. */
  chunks: string[];
  moduleCount: number;
  language?: LanguageCode;
  title?: string;
}

export interface GeneratedModule {
  lesson: { title: string; content: string };
  question: { title: string; options: { text: string; isCorrect: boolean }[] };
}

export interface GeneratedCourse {
  name: string;
  annotation: string;
  description: string;
  language: LanguageCode;
  modules: GeneratedModule[];
}

/**
 * tinyld is an n-gram detector made for short texts such as a prompt, and deterministic: the same
 * prompt, the same language. Loading its model takes about 0.2 s of CPU, a fifth of a mock's start,
 * so it is loaded at the first generation without a language, not at every start.
 */
let detector: { detect: typeof Tinyld.detect; languages: Set<string> } | undefined;
function tinyld() {
  if (!detector) {
    const { detect, supportedLanguages, toISO2 }: typeof Tinyld = createRequire(import.meta.url)('tinyld');
    detector = {
      detect,
      languages: new Set(
        supportedLanguages.map((code) => toISO2(code)).filter((code) => /^[a-z]{2}$/.test(code)),
      ),
    };
  }
  return detector;
}

/**
 * The languages the detector tells apart, as ISO 639-1 codes (those with a two-letter form;
 * generate.test.ts holds each to be a code of the contract's `LanguageCode`).
 */
export const detectedLanguages = (): ReadonlySet<string> => tinyld().languages;

/** Below three words a detector guesses (`Ladders` reads as Norwegian): such a prompt is taken as English. */
const FEWEST_WORDS = 3;

/**
 * ISO 639-1 code of the prompt's language (seed 000: "default: language of the prompt"); `en` when
 * the prompt is too short to tell or in a language the detector does not know.
 */
export function detectLanguage(text: string): LanguageCode {
  const words = text.split(/[\s\p{P}]+/u).filter(Boolean).length;
  // Scripts without spaces between words (Japanese, Chinese, Thai) are long enough by their letters.
  const spaceless = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]{4}/u.test(text);
  if (words < FEWEST_WORDS && !spaceless) return 'en';
  const { detect, languages } = tinyld();
  const code = detect(text);
  return (languages.has(code) ? code : 'en') as LanguageCode;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The prompt's main words, as a topic: "Create a course about fire safety" → "Fire safety". */
export function topicOf(prompt: string): string {
  const stripped = prompt
    .replace(
      /^(please\s+)?(create|make|build|generate|write)\s+(me\s+)?(a|an)?\s*(short\s+)?(course|training)\s+(on|about|for)?\s*/i,
      '',
    )
    .replace(/[.!?]+$/, '')
    .trim();
  const words = (stripped || prompt).split(/\s+/).slice(0, 8).join(' ');
  return capitalise(words.length > 80 ? `${words.slice(0, 77)}...` : words);
}

/** Deterministic numbers from text. */
export function seeded(text: string): () => number {
  let state = createHash('sha256').update(text).digest();
  let i = 0;
  return () => {
    if (i + 4 > state.length) {
      state = createHash('sha256').update(state).digest();
      i = 0;
    }
    const n = state.readUInt32BE(i) / 0x1_0000_0000;
    i += 4;
    return n;
  };
}

function sentencesOf(chunks: string[]): string[] {
  return chunks
    .join(' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 20);
}

export function generateCourse(input: GenerationInput): GeneratedCourse {
  const topic = topicOf(input.prompt);
  const name = input.title ?? topic;
  const language = input.language ?? detectLanguage(input.prompt);
  const sentences = sentencesOf(input.chunks);
  const random = seeded(`${input.prompt}\n${input.chunks.join('\n')}`);
  const modules = Array.from({ length: input.moduleCount }, (_, i): GeneratedModule => {
    const n = i + 1;
    const from = sentences.length
      ? sentences.slice((i * 3) % sentences.length, ((i * 3) % sentences.length) + 3)
      : [];
    const content = from.length
      ? from.join(' ')
      : `Module ${n} of ${name}: the key ideas of ${topic.toLowerCase()}, explained with an example.`;
    const options = [
      { text: `The practice module ${n} of ${name} recommends`, isCorrect: true },
      { text: 'Skipping the steps that seem slow', isCorrect: false },
      { text: 'Leaving it to someone else', isCorrect: false },
    ];
    const shift = Math.floor(random() * options.length);
    return {
      lesson: { title: `${name}: module ${n}`, content },
      question: {
        title: `Check your understanding of module ${n}`,
        options: [...options.slice(shift), ...options.slice(0, shift)],
      },
    };
  });
  return {
    name,
    annotation: `A ${input.moduleCount}-module course on ${topic.toLowerCase()}.`,
    description: `Generated from the prompt "${input.prompt}"${input.chunks.length ? ` and ${input.chunks.length} chunk(s) of source material` : ''}.`,
    language,
    modules,
  };
}

/** What `refine_course` appends: one lesson and one question on the feedback. */
export function refinement(courseName: string, feedback: string, count: number): GeneratedModule {
  return {
    lesson: { title: `${courseName}: ${topicOf(feedback)}`, content: `Added on request: ${feedback}` },
    question: {
      title: `Check: ${topicOf(feedback)} (${count + 1})`,
      options: [
        { text: `What the lesson on ${topicOf(feedback).toLowerCase()} explains`, isCorrect: true },
        { text: 'None of it applies here', isCorrect: false },
      ],
    },
  };
}

/** A clearer wording of a single-choice question: the same concept, new text and options. */
export function rewordQuestion(
  title: string,
  options: { text: string; isCorrect: boolean }[],
  feedback?: string,
) {
  const text = feedback
    ? `${title.replace(/\?*$/, '')} — ${feedback}?`
    : `In plain words: ${title.replace(/\?*$/, '')}?`;
  return { text, options: options.map((o) => ({ text: `${o.text} (reworded)`, isCorrect: o.isCorrect })) };
}

/** The brief `regenerate_lesson` returns; the lesson's pages are not touched. */
export function lessonBrief(courseName: string, title: string, content: string, feedback?: string) {
  const points = content
    .split(/(?<=[.!?])\s+/)
    .filter(Boolean)
    .slice(0, 3);
  return {
    topic: topicOf(title),
    title: feedback ? `${title} (${feedback})` : title,
    description: `A new take on "${title}" in ${courseName}${feedback ? `, as asked: ${feedback}` : ''}.`,
    keyPoints: points.length ? points : [`The core idea of ${title}`],
    targetAudience: `Learners of ${courseName}`,
  };
}
