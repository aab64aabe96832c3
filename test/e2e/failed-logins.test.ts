// The failed-login limit of the real `lmskit mock` (docs/mock.md, The MCP backend, and Bounds): a
// trusted peer's `X-Forwarded-For` names the client only when it holds a well-formed address — junk
// (`not-an-ip`) counts against the peer that sent it, so it is locked out like any client — and the
// table of failed logins stays small however many distinct values clients send.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../conformance/request.ts';
import { demoMcpKey } from '../../mock/seed/demo.ts';
import { freePort, type RunningProcess, startLmskit } from './process.ts';

const TOKEN = 'e2e-admin-token-0123456789';
const WRONG_KEY = `lmcp_${'w'.repeat(43)}`;
const running: RunningProcess[] = [];
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
});

async function startMock() {
  const port = await freePort();
  const p = await startLmskit(
    ['mock', '--port', String(port), '--admin-token', TOKEN, '--rate-limit', '0'],
    /ready/,
  );
  running.push(p);
  return { base: `http://127.0.0.1:${port}`, pid: p.child.pid as number };
}

const residentBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

/** A v2 read, through the suite's node:http client: the bound below takes 22 000 of them. */
async function v2(base: string, key: string, forwardedFor?: string) {
  const headers = {
    'x-mcp-key': key,
    ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
  };
  const answer = await request(`${base}/api/v2/users?query=lena`, 'GET', headers, undefined, 60_000);
  return { status: answer.status, body: JSON.parse(answer.text) };
}

describe('only a well-formed X-Forwarded-For names the client (docs/mock.md, The MCP backend: client address)', () => {
  let base = '';
  beforeAll(async () => {
    ({ base } = await startMock());
  });

  it('junk in the header counts against the peer: 20 wrong keys, each with other junk, lock the peer out', async () => {
    for (let n = 0; n < 20; n++) expect((await v2(base, WRONG_KEY, `not-an-ip-${n}`)).status).toBe(401);
    const refused = await v2(base, demoMcpKey('read'), 'not-an-ip-20');
    expect(refused).toEqual({
      status: 429,
      body: { error: expect.stringMatching(/retry after/), code: 'MCP_AUTH_RATE_LIMITED' },
    });
    // The peer itself, without the header, is the same client.
    expect((await v2(base, demoMcpKey('read'))).status).toBe(429);
  });

  it('a well-formed address still names the client: its wrong keys lock out that client alone', async () => {
    for (let n = 0; n < 20; n++) expect((await v2(base, WRONG_KEY, '203.0.113.7')).status).toBe(401);
    expect((await v2(base, demoMcpKey('read'), '203.0.113.7')).status).toBe(429);
    expect((await v2(base, demoMcpKey('read'), '203.0.113.8')).status).toBe(200);
    expect((await v2(base, demoMcpKey('read'), '2001:db8::8')).status).toBe(200);
  });
});

describe('the failed-login table is bounded (docs/mock.md, Bounds)', () => {
  it('20 000 wrong keys, each with another 8 KB X-Forwarded-For, grow the mock by under 60 MB', async () => {
    const { base, pid } = await startMock();
    expect((await v2(base, demoMcpKey('read'), '198.51.100.1')).status).toBe(200);
    const before = residentBytes(pid);
    const junk = 'j'.repeat(8 * 1024);
    for (let n = 0; n < 20_000; n += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => v2(base, WRONG_KEY, `${junk}${n + i}`).then((a) => a.status)),
      );
    // Some of them were well-formed addresses too: each is a row, up to the bound.
    for (let n = 0; n < 2_000; n += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => v2(base, WRONG_KEY, `2001:db8::${(n + i).toString(16)}`)),
      );
    const grown = residentBytes(pid) - before;
    expect(grown, `grew by ${Math.round(grown / 2 ** 20)} MB`).toBeLessThan(60 * 2 ** 20);
    // And it still answers, the clients that did not fail included.
    expect((await v2(base, demoMcpKey('read'), '198.51.100.2')).status).toBe(200);
  }, 180_000);
});
