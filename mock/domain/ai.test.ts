// Upload sessions (seed 000, upload_source_material): what a tenant keeps of uploaded text is bounded.
import { describe, expect, it } from 'vitest';
import { recordUpload } from './ai.ts';
import { TenantState } from './tenant-state.ts';

const START = 1_767_225_600;

describe('uploaded text kept per tenant (x-extraction-limits: storedTextCharacters)', () => {
  it('forgets the files of the oldest sessions first, and a session left empty, never the new file', () => {
    const t = TenantState.empty('t', 'T', 'key');
    const file = (sessionId?: string) =>
      recordUpload(
        t,
        {
          sessionId,
          filename: 'f',
          mimeType: 'application/pdf',
          size: 1,
          chunks: ['x'.repeat(40)],
          keepCharacters: 100,
        },
        START,
      );
    const a = file();
    file(a.sessionId);
    const b = file();
    // 120 characters: the oldest session's first file goes.
    expect([...t.uploads.keys()]).toEqual([a.sessionId, b.sessionId]);
    expect(t.uploads.get(a.sessionId)?.files).toHaveLength(1);
    const c = file();
    // Its last file goes too, and the session with it.
    expect([...t.uploads.keys()]).toEqual([b.sessionId, c.sessionId]);
    const last = file(c.sessionId);
    expect([...t.uploads.keys()]).toEqual([c.sessionId]);
    expect(t.uploads.get(c.sessionId)?.files.map((f) => f.id)).toContain(last.file.id);
  });
});
