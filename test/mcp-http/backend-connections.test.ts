// Over HTTP the tool server keeps its connections to the platform open between tool calls
// (mcp-server/backend.ts): a call costs the backend request, not a TCP handshake too. The connections
// are shared by every key, and each request on them still carries its own key: a key's calls act as
// that key's owner alone (seed 000, "What the service does": tools act as the owner of the MCP key).

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAliveAgent } from '../../mcp-server/backend.ts';
import { createHttpApp } from '../../mcp-server/http.ts';
import { ToolRunner } from '../../mcp-server/tools.ts';
import { type Harness, READ_KEY, startHarness } from '../mock/harness.ts';

let h: Harness;
/** A TCP relay in front of the mock that counts the connections opened to it. */
let relay: TcpServer;
let opened = 0;
let mcpUrl = '';
let closeMcp: () => void;

beforeAll(async () => {
  h = await startHarness('demo', { requestsPerMinute: 0 });
  const target = Number(new URL(h.base).port);
  relay = createServer((socket) => {
    opened++;
    const upstream = connect(target, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  relay.listen(0, '127.0.0.1');
  await new Promise((r) => relay.once('listening', r));
  const app = createHttpApp({
    baseUrl: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    runner: new ToolRunner(),
    version: 'test',
    host: '127.0.0.1',
    // Connections of its own, so that no other test's calls are counted.
    backend: { agent: keepAliveAgent() },
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  mcpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  closeMcp = () => {
    server.closeAllConnections();
    server.close();
  };
});
afterAll(async () => {
  closeMcp();
  relay.close();
  await h.close();
});

async function callTool(key: string, name: string, args: Record<string, unknown>) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-mcp-key': key,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  expect(res.status).toBe(200);
  const { result } = (await res.json()) as { result: { structuredContent: any; isError?: boolean } };
  expect(result.isError).toBeUndefined();
  return result.structuredContent;
}

describe('the connections to the platform', () => {
  it('ten calls of one key, one after the other, reuse one connection (its capabilities check included)', async () => {
    const before = opened;
    for (let i = 0; i < 10; i++) expect((await callTool(READ_KEY, 'get_course', { courseId: 1 })).id).toBe(1);
    expect(opened - before).toBe(1);
  });

  it("calls of two keys alternating over the same connection each act as their own key's owner", async () => {
    const lena = await h.newKey(6, ['read']);
    const before = opened;
    for (let i = 0; i < 3; i++) {
      const ada = await callTool(READ_KEY, 'list_my_assignments', {});
      const hers = await callTool(lena.key, 'list_my_assignments', {});
      expect(new Set(ada.assignments.map((a: { userId: number }) => a.userId))).toEqual(new Set([1]));
      expect(new Set(hers.assignments.map((a: { userId: number }) => a.userId))).toEqual(new Set([6]));
    }
    expect(opened - before).toBe(0);
  });
});
