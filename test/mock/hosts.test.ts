// The Host check in-process (docs/mock.md, Host names and pages; mock/http/hosts.ts): startMock serves
// loopback names, its host and the `allowedHosts` it is given, refuses any other in the API's shape,
// and a mock listening on every interface hands out a URL that it serves.
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { type Mock, startMock } from '../../package/index.ts';

const mocks: Mock[] = [];
afterAll(() => Promise.all(mocks.map((m) => m.stop())));

function statusWithHost(url: string, host: string, path: string, headers: Record<string, string> = {}) {
  const { port } = new URL(url);
  return new Promise<{ status: number; body: any }>((resolve, reject) =>
    request({ host: '127.0.0.1', port, path, headers: { ...headers, host } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end(),
  );
}

describe('startMock and the Host check', () => {
  it('serves its URL and localhost, refuses another name 403 in the v1 shape on v1', async () => {
    const mock = await startMock();
    mocks.push(mock);
    expect((await fetch(`${mock.url}/__admin/health`)).status).toBe(200);
    const key = { 'x-api-key': mock.siteApiKey };
    expect((await statusWithHost(mock.url, 'localhost', '/openapi/v1/courses', key)).status).toBe(200);
    expect(await statusWithHost(mock.url, 'evil.example', '/openapi/v1/courses', key)).toEqual({
      status: 403,
      body: { status: 403, message: expect.stringMatching(/evil\.example is not served/) },
    });
  });

  it('serves the allowedHosts it is given', async () => {
    const mock = await startMock({ allowedHosts: ['mock.example.test'] });
    mocks.push(mock);
    expect((await statusWithHost(mock.url, 'mock.example.test:80', '/__admin/health')).status).toBe(200);
    expect((await statusWithHost(mock.url, 'other.example.test', '/__admin/health')).status).toBe(403);
  });

  it('listening on every interface, hands out a URL on 127.0.0.1, which it serves', async () => {
    const mock = await startMock({ host: '0.0.0.0' });
    mocks.push(mock);
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${mock.url}/__admin/health`)).status).toBe(200);
  });

  it('refuses an allowedHosts entry that is no host name, with a sentence', async () => {
    await expect(startMock({ allowedHosts: ['not a host'] })).rejects.toThrow(/not a host name/);
  });
});
