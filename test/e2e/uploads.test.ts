// Hostile source files against the real `lmskit mock` process (openapi/v2 upload operation,
// x-extraction-limits): a zip bomb, page bombs, a Flate bomb and a file with more text than is kept
// are each refused 413 EXTRACTION_LIMIT with the limit named, nothing is recorded, and the health
// endpoint keeps answering while they are read — extraction happens off the server's thread. A DOCX
// whose XML nests elements tens of thousands of levels deep is a file that cannot be read (400, with a
// sentence saying why, not the engine's "Maximum call stack size exceeded"), and an ordinary one is
// still read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../../conformance/fixtures.ts';
import { demoMcpKey } from '../../mock/seed/demo.ts';
import {
  docx,
  docxOfNestedTables,
  docxOfXmlBytes,
  PARAGRAPH_TEXT,
  pdfOfFlateBytes,
  pdfOfPages,
} from '../hostile-files.ts';
import { freePort, type RunningProcess, startLmskit } from './process.ts';

const MB = 1024 * 1024;
let mock: RunningProcess;
let base = '';

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  mock = await startLmskit(
    ['mock', '--port', String(port), '--admin-token', 'e2e-admin-token-16', '--rate-limit', '0'],
    /ready/,
  );
});
afterAll(async () => {
  mock.child.kill('SIGKILL');
  await mock.exited;
});

function upload(data: Buffer, filename: string) {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(data)]), filename);
  return fetch(`${base}/api/v2/chat/source-materials/upload`, {
    method: 'POST',
    headers: { 'x-mcp-key': demoMcpKey('write') },
    body,
  });
}

/**
 * Asks the health endpoint every 20 ms until `work` settles; how many answers arrived before it did.
 * A server that reads the file on its own thread answers nothing until it has finished, and then the
 * upload first; one that reads it aside answers health checks all along.
 */
async function healthAnswersWhile<T>(work: Promise<T>): Promise<{ result: T; answeredMeanwhile: number }> {
  let settled = false;
  let answeredMeanwhile = 0;
  const poll = (async () => {
    while (!settled) {
      expect((await fetch(`${base}/__admin/health`)).status).toBe(200);
      if (!settled) answeredMeanwhile++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const result = await work;
  settled = true;
  await poll;
  return { result, answeredMeanwhile };
}

const uploadedSessions = async () =>
  Object.keys(
    (
      await (
        await fetch(`${base}/__admin/snapshot`, { headers: { authorization: 'Bearer e2e-admin-token-16' } })
      ).json()
    ).tenants.demo.uploads,
  ).length;

describe('hostile uploads, one by one', () => {
  const cases: [string, () => Buffer, string, RegExp][] = [
    [
      'a zip bomb: a DOCX of about 100 KB whose document.xml inflates to 100 MB',
      () => docxOfXmlBytes(100 * MB),
      'bomb.docx',
      /its XML parts, which hold the text, inflate to more than 8 MB/,
    ],
    [
      'a page bomb: a PDF of 5 000 pages',
      () => pdfOfPages(5_000),
      'pages.pdf',
      /has 5000 pages; at most 1000/,
    ],
    ['a page bomb: a PDF of 20 000 pages', () => pdfOfPages(20_000), 'more-pages.pdf', /has 20000 pages/],
    [
      'a Flate bomb: a PDF whose content stream inflates to 200 MB',
      () => pdfOfFlateBytes(200 * MB),
      'flate.pdf',
      /compressed streams inflate to more than 64 MB/,
    ],
    [
      'more text than is kept: a DOCX of 1.5 million characters',
      () => docx(Math.ceil(1_500_000 / PARAGRAPH_TEXT)),
      'long.docx',
      /holds more than 1,000,000 characters of text/,
    ],
  ];

  it.each(cases)(
    'refuses %s: 413 naming the limit, nothing recorded, health answering throughout',
    async (_, make, name, limit) => {
      const data = make();
      const before = await uploadedSessions();
      const { result, answeredMeanwhile } = await healthAnswersWhile(upload(data, name));
      expect(result.status).toBe(413);
      expect(await result.json()).toEqual({
        error: expect.stringMatching(
          new RegExp(`^${name} is refused: .*${limit.source}.*x-extraction-limits`),
        ),
        code: 'EXTRACTION_LIMIT',
      });
      // No timing: an event loop held by the extraction answers no health check until the upload is done.
      expect(answeredMeanwhile).toBeGreaterThanOrEqual(2);
      expect(await uploadedSessions()).toBe(before);
    },
  );

  it('answers a multipart body that ends inside its file 400 VALIDATION_ERROR, and keeps serving (docs/mock.md, Bad input)', async () => {
    const boundary = 'cut-short';
    const answer = await fetch(`${base}/api/v2/chat/source-materials/upload`, {
      method: 'POST',
      headers: {
        'x-mcp-key': demoMcpKey('write'),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 and then nothing`,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'Malformed multipart body: Unexpected end of form',
    });
    expect((await fetch(`${base}/__admin/health`)).status).toBe(200);
  });

  it('still takes an ordinary file afterwards', async () => {
    const answer = await upload(minimalPdf('Exits stay clear'), 'ordinary.pdf');
    expect(answer.status).toBe(201);
  });
});

describe('a DOCX nested too deeply to read (x-extraction-limits: docxXmlDepth)', () => {
  it('is a 400 VALIDATION_ERROR naming the part and the depth, in the {error, code} shape', async () => {
    const answer = await upload(docxOfNestedTables(30_000), 'nested.docx');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error:
        'nested.docx looks like DOCX but cannot be read: its part word/document.xml nests XML elements deeper than 1000 levels (docxXmlDepth of x-extraction-limits)',
      code: 'VALIDATION_ERROR',
    });
  });

  it('reads a DOCX nested as deep as documents go (a table inside 50 tables), and an ordinary one', async () => {
    expect((await upload(docxOfNestedTables(50), 'tables.docx')).status).toBe(201);
    expect((await upload(docx(10), 'plain.docx')).status).toBe(201);
  });
});
