// Text extraction within limits (openapi/v2 upload operation, x-extraction-limits): a file that
// expands past a limit is refused with a sentence naming it, before or while it is parsed, in a
// worker whose heap and time are bounded; the server's own thread only waits.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalPdf } from '../../conformance/fixtures.ts';
import { ROOT } from '../../lib/paths.ts';
import {
  docx,
  docxOfNestedTables,
  docxOfXmlBytes,
  PARAGRAPH_TEXT,
  pdfOfFlateBytes,
  pdfOfPages,
} from '../../test/hostile-files.ts';
import { extractionLimits } from '../http/v2/upload.ts';
import { loadSpecs } from '../specs.ts';
import { docxOverLimit, pdfOverLimit, Unreadable, xmlNestsDeeper } from './expansion.ts';
import { type ExtractionLimits, Extractor } from './extract.ts';

const LIMITS = extractionLimits(loadSpecs().v2);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const MB = 1024 * 1024;

describe('the contract states the limits (openapi/v2: x-extraction-limits, assumed)', () => {
  it('reads every limit the extractor needs as a positive number', () => {
    const names: (keyof ExtractionLimits)[] = [
      'textCharacters',
      'docxPartsBytes',
      'docxXmlBytes',
      'docxXmlDepth',
      'pdfPages',
      'pdfStreamBytes',
      'seconds',
      'memoryMb',
      'storedTextCharacters',
    ];
    for (const name of names) expect(LIMITS[name], name).toBeGreaterThan(0);
  });
});

describe('docxOverLimit (x-extraction-limits: docxPartsBytes, docxXmlBytes)', () => {
  it('lets an ordinary DOCX through', () => {
    expect(docxOverLimit(docx(100), LIMITS)).toBeNull();
  });

  it('stops a zip bomb at the XML limit, whatever the directory declares (a 100 MB document.xml declared as 100 bytes)', () => {
    const bomb = docx(Math.ceil((100 * MB) / 90), (name, size) =>
      name.endsWith('document.xml') ? 100 : size,
    );
    expect(bomb.length).toBeLessThan(MB);
    expect(docxOverLimit(bomb, LIMITS)).toBe('its XML parts, which hold the text, inflate to more than 8 MB');
  });

  it('stops parts that inflate past the total even when no single one is XML', () => {
    const limits = { ...LIMITS, docxPartsBytes: MB };
    expect(docxOverLimit(docxOfXmlBytes(2 * MB), { ...limits, docxXmlBytes: 64 * MB })).toMatch(
      /parts inflate to more than 1 MB in all/,
    );
  });

  it('calls a file without a zip directory unreadable, not over a limit', () => {
    expect(() => docxOverLimit(Buffer.from('PK\x03\x04 word/document.xml but no directory'), LIMITS)).toThrow(
      Unreadable,
    );
  });
});

describe('how deep a DOCX nests (x-extraction-limits: docxXmlDepth)', () => {
  const depth = (xml: string, max: number) => xmlNestsDeeper(Buffer.from(xml), max);

  it('counts open elements, not those that close themselves, nor what comments, CDATA and quotes hold', () => {
    expect(depth('<?xml version="1.0"?><a><b><c/></b><b/></a>', 2)).toBe(false);
    expect(depth('<a><b><c/></b></a>', 1)).toBe(true);
    expect(depth('<a><b><c></c></b></a>', 2)).toBe(true);
    expect(depth('<a><!-- <b><b><b> --><![CDATA[<b><b><b>]]><b x="/>" y=\'<c>\'></b></a>', 2)).toBe(false);
    expect(depth(`${'<a x="/>">'.repeat(5)}${'</a>'.repeat(5)}`, 4)).toBe(true);
  });

  it('refuses a DOCX nested deeper than the limit as unreadable, naming the part; lets one of 50 nested tables through', () => {
    expect(() => docxOverLimit(docxOfNestedTables(LIMITS.docxXmlDepth), LIMITS)).toThrow(
      new Unreadable(
        `its part word/document.xml nests XML elements deeper than ${LIMITS.docxXmlDepth} levels (docxXmlDepth of x-extraction-limits)`,
      ),
    );
    expect(docxOverLimit(docxOfNestedTables(50), LIMITS)).toBeNull();
  });
});

describe('pdfOverLimit (x-extraction-limits: pdfStreamBytes)', () => {
  it('lets an ordinary PDF through', () => {
    expect(pdfOverLimit(pdfOfFlateBytes(100_000), LIMITS)).toBeNull();
  });

  it('stops a Flate stream that inflates to 200 MB', () => {
    expect(pdfOverLimit(pdfOfFlateBytes(200 * MB), LIMITS)).toBe(
      'its compressed streams inflate to more than 64 MB in all',
    );
  });
});

describe('Extractor', () => {
  const extractor = new Extractor(LIMITS);

  it('extracts the text of a PDF and a DOCX into chunks, in a worker (seed 000, upload_source_material)', async () => {
    expect(await extractor.extract(minimalPdf('Exits stay clear'), 'application/pdf')).toEqual({
      chunks: ['Exits stay clear'],
    });
    const answer = await extractor.extract(docx(3), DOCX);
    expect('chunks' in answer && answer.chunks.join(' ')).toMatch(/^Fire doors stay closed/);
  });

  it('reads a file still when another start removed the worker’s bundle (its sources changed): through tsx, then from a new bundle', async () => {
    await extractor.extract(docx(1), DOCX);
    const cache = join(ROOT, 'node_modules', '.cache', 'lmskit');
    const manifest = readdirSync(cache).find((f) => /^extract-sandbox-[0-9a-f]+\.json$/.test(f));
    const bundle = JSON.parse(readFileSync(join(cache, String(manifest)), 'utf8')).bundle as string;
    rmSync(dirname(bundle), { recursive: true, force: true });
    expect(await extractor.extract(minimalPdf('Exits stay clear'), 'application/pdf')).toEqual({
      chunks: ['Exits stay clear'],
    });
    expect(await extractor.extract(minimalPdf('Exits stay clear'), 'application/pdf')).toEqual({
      chunks: ['Exits stay clear'],
    });
    expect(existsSync(JSON.parse(readFileSync(join(cache, String(manifest)), 'utf8')).bundle)).toBe(true);
  });

  it('refuses a PDF of more pages than it reads, before reading them', async () => {
    expect(await extractor.extract(pdfOfPages(LIMITS.pdfPages + 1), 'application/pdf')).toEqual({
      overLimit: `it has ${LIMITS.pdfPages + 1} pages; at most ${LIMITS.pdfPages} are read`,
    });
  });

  it('refuses a file holding more text than it keeps', async () => {
    const paragraphs = Math.ceil(LIMITS.textCharacters / PARAGRAPH_TEXT) + 10;
    expect(await extractor.extract(docx(paragraphs), DOCX)).toEqual({
      overLimit: 'it holds more than 1,000,000 characters of text',
    });
  });

  it('stops a worker that takes longer than its time budget', async () => {
    const slow = new Extractor({ ...LIMITS, seconds: 0.01 });
    expect(await slow.extract(minimalPdf('x'), 'application/pdf')).toEqual({
      overLimit: 'it takes longer than 0.01 s to read',
    });
  });

  it('stops a worker that needs more heap than it may have', async () => {
    const small = new Extractor({ ...LIMITS, memoryMb: 2 });
    expect(await small.extract(minimalPdf('x'), 'application/pdf')).toEqual({
      overLimit: 'it needs more than 2 MB of memory to read',
    });
  });

  it('says a file nested too deeply for the parser to read is so, not "Maximum call stack size exceeded"', async () => {
    const unchecked = new Extractor({ ...LIMITS, docxXmlDepth: Number.MAX_SAFE_INTEGER });
    expect(await unchecked.extract(docxOfNestedTables(30_000), DOCX)).toEqual({
      unreadable: 'its content is nested too deeply to read',
    });
  });

  it('calls a file that only looks like a PDF unreadable', async () => {
    const answer = await extractor.extract(Buffer.from('%PDF-1.4\nnothing else'), 'application/pdf');
    expect(answer).toEqual({ unreadable: expect.any(String) });
  });

  it('answers busy, at once, when every worker runs and the queue is full', async () => {
    const one = new Extractor(LIMITS, 1, 0);
    const first = one.extract(minimalPdf('first'), 'application/pdf');
    expect(await one.extract(minimalPdf('second'), 'application/pdf')).toEqual({ busy: true });
    expect(await first).toEqual({ chunks: ['first'] });
  });

  it('reads no text from an image (no OCR in the mock), without a worker', async () => {
    expect(await extractor.extract(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png')).toEqual({
      chunks: [],
    });
  });
});
