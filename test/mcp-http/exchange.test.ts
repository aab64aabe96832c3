// The tool server answers a POST to /mcp itself (mcp-server/http-exchange.ts) instead of through the
// SDK's Streamable HTTP transport, which converts every request and answer to web Request/Response
// objects. What a client sees must not change: for each request below, the SDK transport (stateless,
// JSON answers, as the tool server used it) and the exchange give the same status, content type and
// body (MCP 2025-11-25, Transports > Streamable HTTP; docs/mcp.md, "Errors a client can meet").
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import express, { type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpExchange } from '../../mcp-server/http-exchange.ts';

/** A small server of one tool, fresh for each request as stateless HTTP has it. */
function toolServer(): Server {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    // Answers out of order within a batch: the slower the call, the later its answer.
    await new Promise((r) => setTimeout(r, Number(request.params.arguments?.wait ?? 0)));
    return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }] };
  });
  return server;
}

async function listen(handle: (req: Request, res: Response) => Promise<void>) {
  const app = express();
  app.use(express.json());
  app.post('/mcp', handle);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

let sdk: Awaited<ReturnType<typeof listen>>;
let ours: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  sdk = await listen(async (req, res) => {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await toolServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  ours = await listen(async (req, res) => {
    const exchange = new HttpExchange(req, res);
    await toolServer().connect(exchange);
    exchange.handle(req.body);
  });
});
afterAll(() => {
  for (const { server } of [sdk, ours]) {
    server.closeAllConnections();
    server.close();
  }
});

const POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const init = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
});
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const call = (id: number, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: args },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

const CASES: [string, unknown, Record<string, string>?][] = [
  ['initialize', init(0)],
  ['a tool call', call(1, { a: 1 })],
  ['tools/list', { jsonrpc: '2.0', id: 'list', method: 'tools/list' }],
  ['an unknown method', { jsonrpc: '2.0', id: 3, method: 'nope' }],
  [
    'a batch answered out of order, with a notification in it',
    [call(1, { wait: 30 }), initialized, call(2, {})],
  ],
  ['a batch repeating an id', [ping(1), ping(1)]],
  ['an empty batch', []],
  ['a batch of 101', Array.from({ length: 101 }, (_, i) => ping(i))],
  ['initialize with another request', [init(0), ping(1)]],
  ['a notification only', initialized],
  ['an answer only', { jsonrpc: '2.0', id: 3, result: {} }],
  ['JSON that is no JSON-RPC message', { foo: 1 }],
  ['extra members', { ...ping(1), junk: true }],
  ['Accept without text/event-stream', ping(1), { accept: 'application/json' }],
  ['no Accept', ping(1), { accept: '' }],
  ['Content-Type text/plain', ping(1), { 'content-type': 'text/plain' }],
  ['Content-Type JSON with a charset', ping(1), { 'content-type': 'application/json; charset=utf-8' }],
  ['an unsupported protocol version', ping(1), { 'mcp-protocol-version': '1999-01-01' }],
  ['an unsupported protocol version at initialize', init(0), { 'mcp-protocol-version': '1999-01-01' }],
  ['a supported protocol version', ping(1), { 'mcp-protocol-version': '2025-06-18' }],
];

async function answer(url: string, body: unknown, headers: Record<string, string> = {}) {
  const sent = Object.fromEntries(Object.entries({ ...POST, ...headers }).filter(([, v]) => v));
  const res = await fetch(url, { method: 'POST', headers: sent, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('a POST to /mcp is answered as the SDK transport answers it', () => {
  it.each(CASES)('%s', async (_name, body, headers) => {
    const [expected, actual] = await Promise.all([
      answer(sdk.url, body, headers),
      answer(ours.url, body, headers),
    ]);
    expect(actual).toEqual(expected);
  });
});
