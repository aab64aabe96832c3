// The body of the extraction worker (started by extract.ts from its bundle, else through extract-worker.js): checks how far
// the file expands, extracts its text — PDF with pdf.js, DOCX with mammoth, runs of printable
// characters from a legacy DOC — within the limits, cuts it into chunks and posts the answer back.
// Whatever a hostile file does here costs this thread's time and heap, never the server's.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { docxOverLimit, pdfOverLimit } from './expansion.ts';
import type { ExtractionLimits, WorkerAnswer, WorkerTask } from './extract.ts';

/** Over a limit: the sentence says which. */
class OverLimit extends Error {}

// pdf.js needs the metrics of the 14 standard fonts to place text; they ship with the package.
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Keeps the text within the limit as it grows. */
class Text {
  private parts: string[] = [];
  private length = 0;
  constructor(private readonly limit: number) {}
  add(text: string): void {
    this.length += text.length + 1;
    if (this.length > this.limit)
      throw new OverLimit(`it holds more than ${this.limit.toLocaleString('en')} characters of text`);
    this.parts.push(text);
  }
  toString(): string {
    return this.parts.join('\n');
  }
}

async function pdfText(data: Uint8Array, limits: ExtractionLimits): Promise<string> {
  const over = pdfOverLimit(Buffer.from(data.buffer, data.byteOffset, data.byteLength), limits);
  if (over) throw new OverLimit(over);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data,
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  }).promise;
  if (doc.numPages > limits.pdfPages)
    throw new OverLimit(`it has ${doc.numPages} pages; at most ${limits.pdfPages} are read`);
  const text = new Text(limits.textCharacters);
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    text.add(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return text.toString();
}

async function docxText(data: Buffer, limits: ExtractionLimits): Promise<string> {
  const over = docxOverLimit(data, limits);
  if (over) throw new OverLimit(over);
  const text = new Text(limits.textCharacters);
  // Loaded for a DOCX only, as pdf.js is for a PDF only: a worker reads one file.
  const { default: mammoth } = await import('mammoth');
  text.add((await mammoth.extractRawText({ buffer: data })).value);
  return text.toString();
}

/** Legacy .doc: no parser is worth its weight here; keep the runs of printable text. */
function docText(data: Buffer, limits: ExtractionLimits): string {
  const text = new Text(limits.textCharacters);
  for (const run of data.toString('latin1').match(/[\x20-\x7e]{6,}/g) ?? []) text.add(run);
  return text.toString();
}

const CHUNK_WORDS = 200;

/** Cuts text into chunks of about CHUNK_WORDS words. */
function chunk(text: string): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += CHUNK_WORDS) chunks.push(words.slice(i, i + CHUNK_WORDS).join(' '));
  return chunks;
}

async function extract({ data, type, limits }: WorkerTask): Promise<WorkerAnswer> {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  try {
    const text =
      type === 'application/pdf'
        ? await pdfText(data, limits)
        : type === DOCX
          ? await docxText(buffer, limits)
          : docText(buffer, limits);
    return { chunks: chunk(text) };
  } catch (error) {
    if (error instanceof OverLimit) return { overLimit: error.message };
    // The parsers recurse over the file's structure; what is nested too deeply for them is a file that
    // cannot be read, said as such rather than as the engine's "Maximum call stack size exceeded".
    if (error instanceof RangeError && /call stack/i.test(error.message))
      return { unreadable: 'its content is nested too deeply to read' };
    return { unreadable: (error as Error).message };
  }
}

parentPort?.once('message', (task: WorkerTask) => {
  void extract(task).then((answer) => parentPort?.postMessage(answer));
});
