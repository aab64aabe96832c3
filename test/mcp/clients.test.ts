// Fair to every client, over the real transports in front of the real mock. A key the platform
// refuses is refused at `initialize` with the platform's reason (and, over HTTP, a WWW-Authenticate
// challenge that says what to send); failed logins count per client, not per tool server; a new key
// costs one capabilities call. Rules: seed 000 "Authentication" 5 (401 for a missing, invalid or
// revoked key), "Errors" (429 MCP_AUTH_RATE_LIMITED per IP; the mock counts 20 per 5 minutes, see
// openapi/v2 example AuthRateLimited), "Capabilities" (called by the tool server).
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_TOOLS,
  admin,
  createKey,
  httpClient,
  initializeRequest,
  journalMark,
  type Mock,
  READ_KEY,
  rawRequest,
  rpcPost,
  startHttpToolServer,
  startMock,
  stdioClient,
  stopAll,
  WRITE_KEY,
} from './setup.ts';

afterAll(stopAll);

const wrongKey = (n: number) => `lmcp_${String(n).padStart(43, 'x')}`;
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('a refused key is refused at initialize, saying what to send (seed 000 "Authentication" 5)', () => {
  let mock: Mock;
  let mcpUrl = '';
  beforeAll(async () => {
    mock = await startMock();
    mcpUrl = (await startHttpToolServer(mock.url)).url;
  });

  it('no X-MCP-Key: 401 with a WWW-Authenticate challenge naming the header, and a JSON-RPC error saying to send it', async () => {
    const answer = await rpcPost(mcpUrl, initializeRequest());
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^X-MCP-Key realm="[^"]+"$/);
    // Refused before the body is read (docs/mcp.md, "Security"), so the request's id is not known.
    expect(answer.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32010, message: 'Send your MCP key in the X-MCP-Key header.' },
    });
  });

  it('a wrong key: 401 at initialize, with the platform\'s reason and error="invalid_key" in the challenge', async () => {
    const answer = await rpcPost(mcpUrl, initializeRequest(), wrongKey(1));
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^X-MCP-Key realm="[^"]+", error="invalid_key"$/);
    expect(answer.json.error).toMatchObject({ code: -32010, data: { status: 401 } });
    expect(answer.json.error.message).toMatch(/key is invalid or revoked/);
    expect(answer.json.error.message).toContain('the platform says: Invalid MCP key');
  });

  it('a key that is not of the MCP key form: 401 with error="invalid_key" at once, saying what a key looks like; the platform is not asked', async () => {
    const mark = await journalMark(mock.url);
    for (const key of ['x', 'Bearer lmcp_abc', `lmcp_${'x'.repeat(42)}`, `lmcp_${'x'.repeat(42)}!`]) {
      const answer = await rpcPost(mcpUrl, initializeRequest(), key);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^X-MCP-Key realm="[^"]+", error="invalid_key"$/);
      expect(answer.json.error.code).toBe(-32010);
      expect(answer.json.error.message).toMatch(/holds no MCP key: a key is 48 characters/);
    }
    expect((await mark.since()).filter((e) => e.path.startsWith('/api/v2'))).toEqual([]);
  });

  it('a revoked key: 401 at initialize, the platform saying it was revoked', async () => {
    const { id, key } = await createKey(mock.url, 1, ['read']);
    expect((await admin(mock.url, 'DELETE', `/tenants/demo/mcp-keys/${id}`)).status).toBe(200);
    const answer = await rpcPost(mcpUrl, initializeRequest(), key);
    expect(answer.status).toBe(401);
    expect(answer.json.error.message).toContain('the platform says: This MCP key was revoked');
  });

  it('over stdio, a wrong key fails the SDK client at connect with code -32010 and the reason', async () => {
    const error = await stdioClient(mock.url, wrongKey(2)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32010);
    expect((error as McpError).message).toMatch(/key is invalid or revoked.*Invalid MCP key/);
  });
});

describe('failed logins count per client, not per tool server (seed 000 "Errors": MCP_AUTH_RATE_LIMITED per IP)', () => {
  let mock: Mock;
  let mcpUrl = '';
  // Two clients of one tool server, told apart by their source address (all of 127/8 is loopback).
  const A = '127.0.0.2';
  const B = '127.0.0.3';
  beforeAll(async () => {
    mock = await startMock();
    mcpUrl = (await startHttpToolServer(mock.url)).url;
  });

  it("client A sends 20 wrong keys: each is a 401; the 21st, and then A's valid key, get 429 with the wait", async () => {
    for (let n = 0; n < 20; n++) {
      const answer = await rpcPost(mcpUrl, initializeRequest(), wrongKey(100 + n), {}, A);
      expect(answer.status, answer.text).toBe(401);
    }
    for (const key of [wrongKey(200), READ_KEY]) {
      const answer = await rpcPost(mcpUrl, initializeRequest(), key, {}, A);
      expect(answer.status, answer.text).toBe(429);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(answer.json.error).toMatchObject({
        code: -32011,
        data: { status: 429, retryAfter: expect.any(Number) },
      });
      expect(answer.json.error.message).toMatch(
        /Too many failed logins .* this client: Too many failed attempts, retry after \d+s/,
      );
    }
  });

  it('client B, meanwhile, is served: a new valid key initializes and lists every tool, a wrong key is a plain 401', async () => {
    const { key } = await createKey(mock.url, 1, ['read', 'write']);
    const init = await rpcPost(mcpUrl, initializeRequest(), key, {}, B);
    expect(init.status, init.text).toBe(200);
    const list = await rpcPost(mcpUrl, listTools, key, { 'mcp-protocol-version': '2025-11-25' }, B);
    expect(list.json.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(ALL_TOOLS);
    expect((await rpcPost(mcpUrl, initializeRequest(), wrongKey(300), {}, B)).status).toBe(401);
  });
});

describe('the mock trusts X-Forwarded-For from configured proxies only (mock --trust-proxy; openapi/v2 AuthRateLimited)', () => {
  const capabilities = (mock: Mock, key: string, forwardedFor: string) =>
    rawRequest(`${mock.url}/api/v2/mcp/capabilities`, {
      method: 'GET',
      headers: { 'x-mcp-key': key, 'x-forwarded-for': forwardedFor },
    });

  it('by default (loopback trusted), 20 failures named for 10.0.0.1 leave 10.0.0.2 alone', async () => {
    const mock = await startMock();
    for (let n = 0; n < 20; n++) expect((await capabilities(mock, wrongKey(n), '10.0.0.1')).status).toBe(401);
    expect((await capabilities(mock, wrongKey(99), '10.0.0.1')).status).toBe(429);
    expect((await capabilities(mock, WRITE_KEY, '10.0.0.2')).status).toBe(200);
  });

  it('with --trust-proxy none the header is ignored: the same 20 failures lock out every address behind it', async () => {
    const mock = await startMock(['--trust-proxy', 'none']);
    for (let n = 0; n < 20; n++) expect((await capabilities(mock, wrongKey(n), '10.0.0.1')).status).toBe(401);
    const other = await capabilities(mock, WRITE_KEY, '10.0.0.2');
    expect(other.status).toBe(429);
    expect(other.json).toMatchObject({ code: 'MCP_AUTH_RATE_LIMITED' });
  });
});

describe('a new key costs one capabilities call (seed 000 "Capabilities")', () => {
  let mock: Mock;
  let mcpUrl = '';
  beforeAll(async () => {
    mock = await startMock();
    mcpUrl = (await startHttpToolServer(mock.url)).url;
  });

  const capabilityCalls = async (mark: Awaited<ReturnType<typeof journalMark>>) =>
    (await mark.since()).filter((e) => e.path === '/api/v2/mcp/capabilities').length;

  it('one initialize of a key not seen before: exactly one GET /api/v2/mcp/capabilities', async () => {
    const { key } = await createKey(mock.url, 1, ['read']);
    const mark = await journalMark(mock.url);
    expect((await rpcPost(mcpUrl, initializeRequest(), key)).status).toBe(200);
    expect(await capabilityCalls(mark)).toBe(1);
  });

  it('an SDK client connecting and listing tools with a new key: one call for the whole conversation', async () => {
    const { key } = await createKey(mock.url, 1, ['read', 'write']);
    const mark = await journalMark(mock.url);
    const { client } = await httpClient(mcpUrl, key);
    expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
    await client.ping();
    expect(await capabilityCalls(mark)).toBe(1);
  });
});
