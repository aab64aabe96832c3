// How far a file expands before anything parses it: the inflated size of a DOCX's parts (a zip bomb
// is a few kilobytes that inflate to gigabytes) and of a PDF's compressed streams. Each part or
// stream is really inflated, with zlib stopping at the remaining budget, since the sizes a zip
// declares can lie. And how deep a DOCX's XML nests: mammoth's parser recurses once per level, so
// XML nested some thousands of levels deep overflowed the stack. Runs inside the extraction worker
// (extract-sandbox.ts).
import { constants, inflateRawSync, inflateSync } from 'node:zlib';
import type { ExtractionLimits } from './extract.ts';

/** The file cannot be read at all (not a zip, a broken stream): a 400, not a limit. */
export class Unreadable extends Error {}

export const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** What `inflate` produces from `data`, or null once it would produce more than `max` bytes. */
function inflated(inflate: typeof inflateSync, data: Buffer, max: number): Buffer | null {
  try {
    // Sync flush: a stream cut short still counts what it inflates to, as pdf.js would read it.
    const out = inflate(data, { maxOutputLength: max + 1, finishFlush: constants.Z_SYNC_FLUSH });
    return out.length > max ? null : out;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw error;
  }
}

/** Bytes `inflate` produces from `data`, or `max` + 1 once it would produce more than `max`. */
function inflatedSize(inflate: typeof inflateSync, data: Buffer, max: number): number {
  return inflated(inflate, data, max)?.length ?? max + 1;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;

/** The index just past the first `end` in `xml` from `from`, or the length when there is none. */
function past(xml: Buffer, end: string, from: number): number {
  const at = xml.indexOf(end, from);
  return at < 0 ? xml.length : at + end.length;
}

/**
 * Whether the elements of `xml` nest deeper than `max` anywhere. A scan of the tags, not a parse:
 * quoted attribute values, comments, CDATA and processing instructions are stepped over, so a `<` or
 * `/>` inside them counts for nothing.
 */
export function xmlNestsDeeper(xml: Buffer, max: number): boolean {
  let depth = 0;
  let at = xml.indexOf(LT);
  while (at >= 0 && at < xml.length) {
    const next = xml[at + 1];
    if (next === SLASH) {
      depth--;
      at = past(xml, '>', at);
    } else if (xml.toString('latin1', at, at + 4) === '<!--') at = past(xml, '-->', at + 4);
    else if (xml.toString('latin1', at, at + 9) === '<![CDATA[') at = past(xml, ']]>', at + 9);
    else if (next === 0x3f) at = past(xml, '?>', at + 2);
    else if (next === 0x21) at = past(xml, '>', at + 2);
    else {
      // An opening tag; it closes itself when it ends in `/>`. Quotes hide `>` and `/`.
      let quote = 0;
      let end = at + 1;
      for (; end < xml.length; end++) {
        const c = xml[end];
        if (quote) {
          if (c === quote) quote = 0;
        } else if (c === 0x22 || c === 0x27) quote = c;
        else if (c === GT) break;
      }
      if (xml[end - 1] !== SLASH && ++depth > max) return true;
      at = end + 1;
    }
    at = xml.indexOf(LT, at);
  }
  return false;
}

const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_END = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/** Null when the DOCX's parts stay within the limits, else which limit they pass. */
export function docxOverLimit(data: Buffer, limits: ExtractionLimits): string | null {
  const end = data.lastIndexOf(ZIP_END);
  if (end < 0 || end + 22 > data.length) throw new Unreadable('it has no zip directory');
  const count = data.readUInt16LE(end + 10);
  let at = data.readUInt32LE(end + 16);
  let total = 0;
  let xml = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== ZIP_CENTRAL)
      throw new Unreadable('its zip directory is broken');
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const nameLength = data.readUInt16LE(at + 28);
    const local = data.readUInt32LE(at + 42);
    const name = data.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (compressed === 0xffffffff || local === 0xffffffff) throw new Unreadable('it is a ZIP64 archive');
    if (local + 30 > data.length || data.readUInt32LE(local) !== ZIP_LOCAL)
      throw new Unreadable(`its part ${name} is missing`);
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    const raw = data.subarray(start, start + compressed);
    const isXml = /\.(xml|rels)$/i.test(name);
    const budget = Math.min(
      limits.docxPartsBytes - total,
      isXml ? limits.docxXmlBytes - xml : Number.POSITIVE_INFINITY,
    );
    let size: number;
    let content: Buffer | null = null;
    if (method === 0) {
      size = raw.length;
      content = raw;
    } else if (method === 8) {
      try {
        // An XML part is kept while it is measured, to be looked at below; any other only counted.
        content = isXml ? inflated(inflateRawSync, raw, budget) : null;
        size = isXml ? (content?.length ?? budget + 1) : inflatedSize(inflateRawSync, raw, budget);
      } catch (error) {
        throw new Unreadable(`its part ${name} does not inflate (${(error as Error).message})`);
      }
    } else throw new Unreadable(`its part ${name} uses compression method ${method}`);
    if (isXml && content && size <= budget && xmlNestsDeeper(content, limits.docxXmlDepth))
      throw new Unreadable(
        `its part ${name} nests XML elements deeper than ${limits.docxXmlDepth} levels (docxXmlDepth of x-extraction-limits)`,
      );
    total += size;
    if (isXml) xml += size;
    if (total > limits.docxPartsBytes)
      return `its parts inflate to more than ${megabytes(limits.docxPartsBytes)} in all`;
    if (xml > limits.docxXmlBytes)
      return `its XML parts, which hold the text, inflate to more than ${megabytes(limits.docxXmlBytes)}`;
  }
  return null;
}

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');

/**
 * Null when the PDF's Flate streams stay within the limit, else the limit. Image streams are left
 * out: text extraction does not decode them. A stream's extent is its direct `/Length`, else up to
 * `endstream`.
 */
export function pdfOverLimit(data: Buffer, limits: ExtractionLimits): string | null {
  let total = 0;
  for (let at = data.indexOf(STREAM); at >= 0; at = data.indexOf(STREAM, at + 1)) {
    if (at >= 3 && data.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (data[start] === 0x0d) start++;
    if (data[start] !== 0x0a) continue;
    start++;
    const objectStart = data.lastIndexOf('obj', at);
    const dict = data.toString('latin1', Math.max(objectStart, at - 4096, 0), at);
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    const end = length ? start + Number(length[1]) : data.indexOf(END_STREAM, start);
    if (end < 0) break;
    if (/\/(FlateDecode|Fl)\b/.test(dict) && !/\/Subtype\s*\/Image\b/.test(dict)) {
      try {
        total += inflatedSize(inflateSync, data.subarray(start, end), limits.pdfStreamBytes - total);
      } catch {
        // A stream zlib cannot read is one pdf.js cannot read either; it expands to nothing.
      }
      if (total > limits.pdfStreamBytes)
        return `its compressed streams inflate to more than ${megabytes(limits.pdfStreamBytes)} in all`;
    }
    at = Math.max(at, end - 1);
  }
  return null;
}
