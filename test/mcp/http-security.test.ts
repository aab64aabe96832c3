// The HTTP tool server's security model (docs/mcp.md, "Security"), over the real transport: the Host
// header must name an allowed host whatever --host is (DNS rebinding; MCP 2025-11-25 "Transports",
// security warning), browsers are served by Origin with real CORS, so a page at an allowed origin
// can send X-MCP-Key and read the answer, and every other origin is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHostsFor } from '../../mcp-server/http.ts';
import {
  initializeRequest,
  type Mock,
  READ_KEY,
  rawRequest,
  rpcPost,
  startHttpToolServer,
  startMock,
  stopAll,
} from './setup.ts';

let mock: Mock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(stopAll);

const portOf = (url: string) => new URL(url).port;

describe('the Host check never switches off (DNS rebinding)', () => {
  it('default (127.0.0.1): Host evil.example is refused 403 before the key is looked at; localhost is served', async () => {
    const { url } = await startHttpToolServer(mock.url);
    const evil = await rpcPost(url, initializeRequest(), READ_KEY, { host: `evil.example:${portOf(url)}` });
    expect(evil.status).toBe(403);
    expect(evil.json).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Invalid Host: evil.example' },
    });
    const local = await rpcPost(url, initializeRequest(), READ_KEY, { host: `localhost:${portOf(url)}` });
    expect(local.status).toBe(200);
  });

  it('--host 127.0.0.2, an address the SDK does not count as localhost: the check still holds; that address is served', async () => {
    const { url } = await startHttpToolServer(mock.url, [], '127.0.0.2');
    const evil = await rpcPost(url, initializeRequest(), READ_KEY, { host: 'evil.example' });
    expect(evil.status).toBe(403);
    const own = await rpcPost(url, initializeRequest(), READ_KEY);
    expect(own.status).toBe(200);
  });

  it('--allowed-hosts mcp.example.test: exactly the hosts named are served', async () => {
    const { url } = await startHttpToolServer(mock.url, ['--allowed-hosts', 'mcp.example.test'], '127.0.0.2');
    const named = await rpcPost(url, initializeRequest(), READ_KEY, {
      host: `mcp.example.test:${portOf(url)}`,
    });
    expect(named.status).toBe(200);
    const address = await rpcPost(url, initializeRequest(), READ_KEY);
    expect(address.status).toBe(403);
    expect(address.json.error.message).toBe('Invalid Host: 127.0.0.2');
  });

  it('listening on every interface without --allowed-hosts serves only localhost names, never any Host', () => {
    expect(allowedHostsFor('0.0.0.0')).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('::')).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('::1')).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('0.0.0.0', ['mcp.example.test', 'fe80::1'])).toEqual([
      'mcp.example.test',
      '[fe80::1]',
    ]);
  });
});

describe('CORS for allowed origins (a browser page at the origin can send X-MCP-Key)', () => {
  const APP = 'https://app.example.test';
  let url = '';
  beforeAll(async () => {
    url = (await startHttpToolServer(mock.url, ['--allow-origin', APP])).url;
  });

  const preflight = (origin: string) =>
    rawRequest(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-mcp-key,mcp-protocol-version',
      },
    });

  it('the preflight of an allowed origin is answered 204 with the methods and headers Streamable HTTP needs', async () => {
    const answer = await preflight(APP);
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(APP);
    expect(answer.headers.vary).toMatch(/Origin/);
    const allowed = String(answer.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    for (const header of [
      'content-type',
      'accept',
      'x-mcp-key',
      'mcp-protocol-version',
      'mcp-session-id',
      'last-event-id',
    ])
      expect(allowed).toContain(header);
    expect(String(answer.headers['access-control-allow-methods'])).toMatch(/POST/);
  });

  it('the POST itself carries Access-Control-Allow-Origin and exposes the MCP and auth headers', async () => {
    const answer = await rpcPost(url, initializeRequest(), READ_KEY, { origin: APP });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(APP);
    const exposed = String(answer.headers['access-control-expose-headers']).toLowerCase();
    for (const header of ['mcp-session-id', 'mcp-protocol-version', 'www-authenticate', 'retry-after'])
      expect(exposed).toContain(header);
  });

  it('a refusal is readable by the page too: a 401 without a key carries the origin and the challenge', async () => {
    const answer = await rpcPost(url, initializeRequest(), '', { origin: APP });
    expect(answer.status).toBe(401);
    expect(answer.headers['access-control-allow-origin']).toBe(APP);
    expect(answer.headers['www-authenticate']).toMatch(/^X-MCP-Key /);
  });

  it('a localhost origin is allowed by default; any other origin is refused 403 with no CORS header', async () => {
    expect((await preflight('http://localhost:5173')).status).toBe(204);
    for (const answer of [
      await preflight('https://evil.example'),
      await rpcPost(url, initializeRequest(), READ_KEY, { origin: 'https://evil.example' }),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.json.error.message).toBe('Origin https://evil.example is not allowed.');
    }
  });
});
