// Refusals of the real `lmskit mock` process before any route runs (docs/mock.md, Bad input): headers
// over Node's 16 KB limit get a 431 with the error body of the API the request was for, and a body
// nested 100 000 levels deep is a 400 that registers nothing.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { client, freePort, type RunningProcess, startLmskit } from './process.ts';

let mock: RunningProcess;
let port = 0;
beforeAll(async () => {
  port = await freePort();
  mock = await startLmskit(['mock', '--port', String(port), '--admin-token', 'e2e-admin-token-16'], /ready/);
});
afterAll(async () => {
  mock.child.kill('SIGKILL');
  await mock.exited;
});

/** A GET with a header of `size` bytes, as Node's client sends it; status, content type and body. */
function getWithHeader(path: string, size: number) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { 'x-padding': 'a'.repeat(size) } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('headers over the limit (docs/mock.md, Bad input: 431 in the error shape)', () => {
  it.each([
    [
      '/openapi/v1/courses',
      { status: 431, message: expect.stringMatching(/headers are larger than 16384 bytes/) },
    ],
    [
      '/api/v2/users?query=a',
      { error: expect.stringMatching(/headers are larger/), code: 'HEADERS_TOO_LARGE' },
    ],
    ['/__admin/clock', { error: expect.stringMatching(/headers are larger/), code: 'HEADERS_TOO_LARGE' }],
  ])('answers %s with the API’s error body', async (path, body) => {
    const answer = await getWithHeader(path, 20_000);
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toEqual(body);
  });

  it('still answers a request within the limit', async () => {
    expect((await getWithHeader('/__admin/health', 1_000)).status).toBe(200);
  });
});

describe('a body nested 100 000 levels (docs/mock.md, Bad input)', () => {
  it('is a 400 on the admin API, and the fault is not registered', async () => {
    const admin = client(`http://127.0.0.1:${port}/__admin`, { authorization: 'Bearer e2e-admin-token-16' });
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const answer = await fetch(`http://127.0.0.1:${port}/__admin/faults`, {
      method: 'POST',
      headers: { authorization: 'Bearer e2e-admin-token-16', 'content-type': 'application/json' },
      body: `{"method":"GET","path":"/openapi/v1/courses","status":500,"body":${nested}}`,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: expect.stringMatching(/nested deeper than 64/),
      code: 'VALIDATION_ERROR',
    });
    expect((await admin('/faults')).body).toEqual({ faults: [] });
    const v1 = client(`http://127.0.0.1:${port}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY });
    expect((await v1('/courses')).status).toBe(200);
  });
});
