// End to end over Streamable HTTP (docs/mcp.md): `lmskit mcp --http` in front of the real
// mock, called by the official SDK client and by raw JSON-RPC POSTs. One stateless server, many keys:
// each request's X-MCP-Key is forwarded, so each key sees its own tools and acts as its own owner.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ABSENT_TOOLS,
  ALL_TOOLS,
  callOk,
  createKey,
  httpClient,
  listingOf,
  type Mock,
  minimalPdf,
  READ_KEY,
  READ_TOOLS,
  resetMock,
  setTenant,
  startHttpToolServer,
  startMock,
  stopAll,
  toolFile,
  WRITE_KEY,
  WRITE_TOOLS,
} from './setup.ts';
import { type CaseContext, toolCaseTests } from './tool-cases.ts';

const dir = mkdtempSync(join(tmpdir(), 'lmskit-mcp-http-'));
let mock: Mock;
let mcpUrl = '';

beforeAll(async () => {
  mock = await startMock();
  // Uploads over HTTP read only inside the upload root (docs/mcp.md, "Security"): the cases' PDF is there.
  mcpUrl = (await startHttpToolServer(mock.url, ['--upload-root', dir])).url;
});
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

/** One raw JSON-RPC POST to /mcp, as a client of any make would send it. */
async function rpc(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'older-client', version: '0.1.0' } },
});

describe('tools/list over HTTP (seed 000 "What the service does" 3 and 5)', () => {
  afterAll(async () => {
    await resetMock(mock.url);
  });

  it('two keys on the same server see different lists: read key the read tools, write key with AI every tool', async () => {
    const reader = await httpClient(mcpUrl, READ_KEY);
    const writer = await httpClient(mcpUrl, WRITE_KEY);
    const [read, write] = await Promise.all([names(reader.client), names(writer.client)]);
    expect(read).toHaveLength(READ_TOOLS.length);
    expect(read).toEqual(READ_TOOLS);
    expect(write).toHaveLength(ALL_TOOLS.length);
    expect(write).toEqual(ALL_TOOLS);
    for (const absent of ABSENT_TOOLS) expect(write).not.toContain(absent);
    // Asked again, each key still gets its own list (the server caches the lists per key).
    expect(await names(reader.client)).toEqual(READ_TOOLS);
  });

  it('a write key on a `full` tenant without AI (mcpAiAccess false) is offered the read and write tools', async () => {
    await setTenant(mock.url, { mcpAccess: 'full', mcpAiAccess: false });
    try {
      // A new key: the server has no list of it yet, so the list reflects the tenant now.
      const { key } = await createKey(mock.url, 1, ['read', 'write']);
      const { client } = await httpClient(mcpUrl, key);
      const listed = await names(client);
      expect(listed).toHaveLength(WRITE_TOOLS.length);
      expect(listed).toEqual(WRITE_TOOLS);
    } finally {
      await setTenant(mock.url, { mcpAiAccess: true });
    }
  });

  it('each listed tool is its mcp-schema file verbatim', async () => {
    const { client } = await httpClient(mcpUrl, WRITE_KEY);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(ALL_TOOLS.length);
    for (const tool of tools) expect(tool).toStrictEqual(listingOf(toolFile(tool.name)));
  });

  it("each request acts as its own key's owner: list_my_assignments of Ada and of Lena (user 6)", async () => {
    const learner = await createKey(mock.url, 6, ['read']);
    const lena = (await httpClient(mcpUrl, learner.key)).client;
    const ada = (await httpClient(mcpUrl, READ_KEY)).client;
    expect(await names(lena)).toEqual(['list_my_assignments']);
    await names(ada);
    const [mine, hers] = await Promise.all([
      callOk(ada, 'list_my_assignments'),
      callOk(lena, 'list_my_assignments'),
    ]);
    expect(new Set(mine.assignments.map((a: any) => a.userId))).toEqual(new Set([1]));
    expect(new Set(hers.assignments.map((a: any) => a.userId))).toEqual(new Set([6]));
  });
});

describe('protocol over HTTP (MCP 2025-11-25 lifecycle, version negotiation)', () => {
  it('the SDK client negotiates 2025-11-25 and sees the tools capability with listChanged', async () => {
    const { client, transport } = await httpClient(mcpUrl, READ_KEY);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(client.getServerVersion()).toMatchObject({ name: 'lmskit' });
  });

  it('an initialize with the older protocol version 2025-03-26 is accepted and answered with it', async () => {
    const answer = await rpc(initialize('2025-03-26'), { 'X-MCP-Key': READ_KEY });
    expect(answer.status).toBe(200);
    expect(answer.body.error).toBeUndefined();
    expect(answer.body.result.protocolVersion).toBe('2025-03-26');
    expect(answer.body.result.capabilities.tools).toEqual({ listChanged: true });
    // And that client's next request, carrying its version in MCP-Protocol-Version, is served.
    const list = await rpc(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'X-MCP-Key': READ_KEY, 'MCP-Protocol-Version': '2025-03-26' },
    );
    expect(list.status).toBe(200);
    expect(list.body.result.tools.map((t: any) => t.name).sort()).toEqual(READ_TOOLS);
  });
});

describe('every tool over HTTP, write key with AI (seed 000 "Endpoints", "Limits")', () => {
  const ctx: CaseContext = { pdfPath: join(dir, 'handout.pdf') };
  let client: Client;
  beforeAll(async () => {
    await resetMock(mock.url);
    writeFileSync(ctx.pdfPath, minimalPdf('Photosynthesis turns light into sugar in the leaves of plants'));
    const { key } = await createKey(mock.url, 1, ['read', 'write']);
    client = (await httpClient(mcpUrl, key)).client;
    expect(await names(client)).toEqual(ALL_TOOLS);
  });

  toolCaseTests(() => ({ client, mockUrl: mock.url, ctx }));
});

describe('HTTP transport rules (docs/mcp.md: Streamable HTTP at /mcp, key per request, DNS-rebinding guard)', () => {
  it('a POST without X-MCP-Key gets 401 with a JSON-RPC error body', async () => {
    const answer = await rpc(initialize('2025-11-25'));
    expect(answer.status).toBe(401);
    // Refused before its body is read (docs/mcp.md, "Security"): the request's id is not known.
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
    expect(answer.body.error.message).toMatch(/X-MCP-Key/);
  });

  it('a POST with a foreign Origin (http://evil.example) gets 403; a localhost Origin is served', async () => {
    const evil = await rpc(initialize('2025-11-25'), {
      'X-MCP-Key': READ_KEY,
      Origin: 'http://evil.example',
    });
    expect(evil.status).toBe(403);
    expect(evil.body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    expect(evil.body.error.message).toContain('http://evil.example');
    const local = await rpc(initialize('2025-11-25'), {
      'X-MCP-Key': READ_KEY,
      Origin: 'http://localhost:3000',
    });
    expect(local.status).toBe(200);
  });

  it('GET /mcp gets 405 (stateless: no server-initiated stream), with Allow: POST', async () => {
    const answer = await fetch(mcpUrl, { headers: { 'X-MCP-Key': READ_KEY, accept: 'text/event-stream' } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect((await answer.json()).error.code).toEqual(expect.any(Number));
  });

  it('a request with an unknown X-MCP-Key learns that the key is invalid (401, or a sentence saying so)', async () => {
    const bogus = `lmcp_${'x'.repeat(43)}`;
    const answer = await rpc(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'find_user', arguments: { query: 'a' } },
      },
      { 'X-MCP-Key': bogus },
    );
    const said = JSON.stringify(answer.body);
    expect(answer.status === 401 || /invalid or revoked/i.test(said), said).toBe(true);
  });

  it('a key may call a tool it is offered without listing first on this server process', async () => {
    const { key } = await createKey(mock.url, 1, ['read']);
    const { client } = await httpClient(mcpUrl, key);
    const found = await callOk(client, 'find_user', { query: 'lena' });
    expect(found.users.map((u: any) => u.id)).toEqual([6]);
  });
});
