// A DOCX whose XML nests elements tens of thousands of levels deep, against the real `lmskit mock`
// (openapi/v2 upload operation, x-extraction-limits: docxXmlDepth): it is a file that cannot be read,
// answered 400 VALIDATION_ERROR with a sentence that says what is wrong with it — not the engine's
// "Maximum call stack size exceeded" — nothing is recorded, and an ordinary DOCX is still read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMcpKey } from '../../mock/seed/demo.ts';
import { docx, docxOfNestedTables } from '../hostile-files.ts';
import { freePort, type RunningProcess, startLmskit } from './process.ts';

let mock: RunningProcess;
let base = '';
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  mock = await startLmskit(
    ['mock', '--port', String(port), '--admin-token', 'e2e-admin-token-0123456789', '--rate-limit', '0'],
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
