// An idle connection outlives the pauses of a client's own test suite (keep-alive.ts): the mock
// announces, and keeps, 65 s instead of Node's 5 s, so a client never reuses a connection the mock
// has just closed.
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../../package/index.ts';
import { KEEP_ALIVE_MS } from './keep-alive.ts';

describe('idle connections (docs/mock.md, Options)', () => {
  const started = startMock();
  afterAll(async () => (await started).stop());

  it('announces the time an idle connection is kept, longer than a test suite pauses', async () => {
    const mock = await started;
    const answer = await fetch(`${mock.url}/__admin/health`);
    expect(answer.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    expect(KEEP_ALIVE_MS).toBeGreaterThanOrEqual(60_000);
  });
});
