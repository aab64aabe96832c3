// The real `lmskit mock` reads a body only once the request is authenticated (docs/mock.md, "Bounds"):
// a crowd of connections without valid credentials that each send ~1 MB of a body and then stall is
// answered at once, its bodies discarded as they arrive rather than held, so the mock's memory stays
// put; and a request whose body stalls, authenticated or not, is dropped within the request timeout
// instead of being held for Node's five minutes.
// Both rules wait out the mock's request timeout (25 s), so they wait it out together: the
// authenticated request starts stalling before the crowd of the first test (so no lockout the crowd
// brings on 127.0.0.1 reaches it), and the second test only awaits its end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { residentBytes, type Stalled, stalledPost } from '../stalled-body.ts';
import { freePort, type RunningProcess, startLmskit } from './process.ts';

const TOKEN = 'e2e-admin-token-0123456789';
let mock: RunningProcess;
let port = 0;
/** The authenticated request whose body stalls (the second test), started before the crowd. */
let authenticated: Stalled;
beforeAll(async () => {
  port = await freePort();
  mock = await startLmskit(['mock', '--port', String(port), '--admin-token', TOKEN], /ready/);
  authenticated = stalledPost(port, '/openapi/v1/users', { 'X-API-KEY': DEMO_SITE_API_KEY });
  await authenticated.flushed;
});
afterAll(async () => {
  mock.child.kill('SIGKILL');
  await mock.exited;
});

/** Rejects with `what` if `promise` has not settled after `ms`: a bound, not a measurement. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Unauthenticated writes to each API: no key, a wrong key, a wrong admin token. */
const UNAUTHENTICATED: [string, Record<string, string>][] = [
  ['/openapi/v1/users', {}],
  ['/openapi/v1/users', { 'X-API-KEY': 'not-the-site-key' }],
  ['/api/v2/courses/7/assignments/users', {}],
  ['/api/v2/courses/7/assignments/users', { 'X-MCP-Key': `lmcp_${'q'.repeat(43)}` }],
  ['/__admin/faults', { Authorization: 'Bearer not-the-admin-token' }],
];

describe('a body is read only after authentication, and a stalled body is dropped (docs/mock.md, Bounds: the stalled body rule)', () => {
  it('200 unauthenticated connections stalling after ~1 MB each: each answered before its body ends, the mock grows by under 100 MB, and all are dropped', async () => {
    // Warm up, so that what the first requests load once is not counted as their cost.
    expect(
      (
        await fetch(`http://127.0.0.1:${port}/openapi/v1/courses`, {
          headers: { 'x-api-key': DEMO_SITE_API_KEY },
        })
      ).status,
    ).toBe(200);
    const pid = mock.child.pid as number;
    const before = residentBytes(pid);
    const stalled = Array.from({ length: 200 }, (_, n) => {
      const [path, headers] = UNAUTHENTICATED[n % UNAUTHENTICATED.length] as [string, Record<string, string>];
      return stalledPost(port, path, headers);
    });
    await within(Promise.all(stalled.map((s) => s.flushed)), 60_000, 'bodies sent');
    // The most the mock's memory reached while the bodies stalled, sampled for a while.
    let most = 0;
    for (let n = 0; n < 15; n++) {
      most = Math.max(most, residentBytes(pid));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(most - before, `grew by ${Math.round((most - before) / 2 ** 20)} MB`).toBeLessThan(100 * 2 ** 20);
    // Each was refused for its credentials without waiting for the rest of its body.
    const statuses = await within(Promise.all(stalled.map((s) => s.answered)), 60_000, 'answers');
    expect(statuses.filter((s) => s !== '401' && s !== '429')).toEqual([]);
    // None is held until the rest of its body comes: the mock closes them (within 26 s; waited for
    // at most twice that).
    await within(Promise.all(stalled.map((s) => s.closed)), 60_000, 'stalled connections closed');
    expect((await fetch(`http://127.0.0.1:${port}/__admin/health`)).status).toBe(200);
  }, 120_000);

  it('an authenticated request whose body stalls is dropped too, answered 408 in the API’s error shape', async () => {
    const stalled = authenticated;
    await within(stalled.closed, 60_000, 'stalled connection closed');
    expect(stalled.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(stalled.received()).toContain('"status":408');
  }, 90_000);
});
