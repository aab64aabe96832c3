// Source material for AI generation (seed 000, upload_source_material): the file type is told by
// its content, not its name, and text is really extracted — from PDF with pdf.js, from DOCX with
// mammoth — then cut into chunks, as the platform "extracts and embeds" them.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import mammoth from 'mammoth';

// pdf.js needs the metrics of the 14 standard fonts to place text; they ship with the package.
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export const ALLOWED_TYPES = {
  'application/pdf': 'PDF',
  'application/msword': 'DOC',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'image/png': 'PNG',
  'image/jpeg': 'JPG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
} as const;
export type AllowedType = keyof typeof ALLOWED_TYPES;

const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);

/** The type of a file by its first bytes (magic numbers), or null when it is none of the allowed ones. */
export function detectType(data: Buffer): AllowedType | null {
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) return 'image/gif'; // GIF8
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'application/msword'; // OLE2 compound file
  // DOCX is a ZIP whose entries include word/document.xml (names are stored uncompressed).
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04]) && data.includes('word/document.xml')) {
    return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  }
  return null;
}

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
