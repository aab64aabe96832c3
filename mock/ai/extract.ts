// Source material for AI generation (seed 000, upload_source_material): the file type is told by
// its content, not its name, and text is really extracted — from PDF with pdf.js, from DOCX with
// mammoth — then cut into chunks, as the platform "extracts and embeds" them.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import mammoth from 'mammoth';
import type { AllowedType } from '../../lib/file-types.ts';

export { ALLOWED_TYPES, type AllowedType, detectType, MAX_UPLOAD_BYTES } from '../../lib/file-types.ts';

// pdf.js needs the metrics of the 14 standard fonts to place text; they ship with the package.
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

async function pdfText(data: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(data),
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages.join('\n');
}

/** Legacy .doc: no parser is worth its weight here; keep the runs of printable text. */
const docText = (data: Buffer) => (data.toString('latin1').match(/[\x20-\x7e]{6,}/g) ?? []).join(' ');

/** The text of a document; images carry none (no OCR in the mock). */
export async function extractText(data: Buffer, type: AllowedType): Promise<string> {
  if (type === 'application/pdf') return pdfText(data);
  if (type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') {
    return (await mammoth.extractRawText({ buffer: data })).value;
  }
  if (type === 'application/msword') return docText(data);
  return '';
}

export const CHUNK_WORDS = 200;

/** Cuts text into chunks of about CHUNK_WORDS words. */
export function chunk(text: string): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += CHUNK_WORDS) chunks.push(words.slice(i, i + CHUNK_WORDS).join(' '));
  return chunks;
}
