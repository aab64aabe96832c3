// An upload that finds every extraction worker busy and the queue full (docs/mock.md, uploads): 503
// EXTRACTION_BUSY with the delay in Retry-After, and nothing recorded — the answer the v2 contract
// documents for uploadSourceMaterial (UploadUnavailable, x-error-codes).
import express from 'express';
import { describe, expect, it } from 'vitest';
import type { Extractor } from '../../mock/ai/extract.ts';
import { receiveUpload } from '../../mock/http/v2/upload.ts';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

describe('an upload while extraction is saturated (docs/mock.md, uploads)', () => {
  it('is refused 503 EXTRACTION_BUSY with a retry delay, and no extraction is recorded', async () => {
    let extracted = 0;
    // Every worker busy and the queue full: what Extractor.extract answers then.
    const saturated = {
      extract: async () => {
        extracted++;
        return { busy: true as const };
      },
    } as unknown as Extractor;
    const app = express().post('/upload', async (req, res) => {
      res.json(await receiveUpload(req, saturated));
    });
    const server = app.listen(0);
    try {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
      const port = (server.address() as { port: number }).port;
      const answer = await (
        await fetch(`http://127.0.0.1:${port}/upload`, { method: 'POST', body: form })
      ).json();
      expect(answer).toMatchObject({ status: 503, code: 'EXTRACTION_BUSY' });
      expect(answer.retryAfter).toBeGreaterThan(0);
      expect(answer.message).toMatch(/retry after \d+s/);
      expect(extracted).toBe(1);
    } finally {
      server.close();
    }
  });
});
