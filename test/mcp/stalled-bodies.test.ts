// Bodies are read only for a client that authenticated (docs/mcp.md, "Security"): a request without
// a well-formed X-MCP-Key, or with a key the platform refuses, is answered before its body is read,
// so a crowd of unauthenticated connections that send most of a 1 MB body and then stall costs the
// tool server next to nothing; and a request that does not arrive whole in time is dropped.
// Both rules wait out the server's request timeout (25 s), so they wait it out together: the
// authenticated request (from its own address) starts stalling before the crowd of the first test,
// and the second test only awaits its end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residentBytes, type Stalled, stalledPost } from '../stalled-body.ts';
import {
  initializeRequest,
  type Mock,
  type RawAnswer,
  READ_KEY,
  rpcPost,
  startHttpToolServer,
  startMock,
  stopAll,
  within,
} from './setup.ts';

afterAll(stopAll);

/** A POST /mcp from `from` whose body stalls, with `key` or none. */
const stalledRpc = (port: number, key: string | undefined, from: string) =>
  stalledPost(
    port,
    '/mcp',
    { Accept: 'application/json, text/event-stream', ...(key === undefined ? {} : { 'X-MCP-Key': key }) },
    from,
  );

describe('no body is buffered before the key is checked; stalled bodies are dropped (the stalled body rule)', () => {
  let mock: Mock;
  let url = '';
  let pid = 0;
  /** The authenticated request whose body stalls (the second test), started before the crowd. */
  let authenticated: Stalled;
  beforeAll(async () => {
    mock = await startMock();
    const server = await startHttpToolServer(mock.url);
    url = server.url;
    pid = server.process.child.pid as number;
    authenticated = stalledRpc(Number(new URL(url).port), READ_KEY, '127.0.0.3');
    await authenticated.flushed;
  });

  it('400 unauthenticated connections stalling after ~1 MB each: each is answered 401 or 429 before its body ends, the server grows by under 100 MB, and drops them all', async () => {
    // Warm up, so what the first requests load once is not counted as their cost.
    const warm: RawAnswer = await rpcPost(url, initializeRequest(), READ_KEY);
    expect(warm.status).toBe(200);
    const before = residentBytes(pid);
    const port = Number(new URL(url).port);
    const keys = (n: number) =>
      // No key, a malformed key, a well-formed key the platform does not know.
      n % 4 === 0
        ? undefined
        : n % 4 === 1
          ? 'x'
          : n % 4 === 2
            ? 'lmcp_short'
            : `lmcp_${String(n).padStart(43, 'q')}`;
    const stalled = Array.from({ length: 400 }, (_, n) => stalledRpc(port, keys(n), '127.0.0.1'));
    await within(Promise.all(stalled.map((s) => s.flushed)), 60_000, 'bodies sent');
    // The largest the server's memory got while the bodies stalled, sampled for a while.
    let most = 0;
    for (let n = 0; n < 15; n++) {
      most = Math.max(most, residentBytes(pid));
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(most - before, `grew by ${Math.round((most - before) / 2 ** 20)} MB`).toBeLessThan(100 * 2 ** 20);
    // Each was answered without its body: a refusal of the key, never a wait for the rest.
    const statuses = await within(Promise.all(stalled.map((s) => s.answered)), 60_000, 'answers');
    expect(statuses.filter((s) => s !== '401' && s !== '429')).toEqual([]);
    // None is held until the rest of its body comes: the server closes them (within 30 s; waited for
    // at most twice that).
    await within(Promise.all(stalled.map((s) => s.closed)), 60_000, 'stalled connections closed');
    // And it goes on serving (another client: the wrong keys locked 127.0.0.1 out at the platform).
    expect((await rpcPost(url, initializeRequest(), READ_KEY, {}, '127.0.0.2')).status).toBe(200);
  });

  it('an authenticated request whose body stalls is dropped too', async () => {
    const stalled = authenticated;
    await within(stalled.closed, 60_000, 'stalled connection closed');
    expect((await rpcPost(url, initializeRequest(), READ_KEY, {}, '127.0.0.3')).status).toBe(200);
  });
});
