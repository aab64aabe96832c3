// The tool server under bad input, over the real transports in front of the real mock: every answer
// is a JSON-RPC error of the documented code (docs/mcp.md, "Errors a client can meet"), never an HTML
// page, a stack trace or a zod dump; nothing is sent to the platform; the server keeps serving.
// Rules: JSON-RPC 2.0 section 5.1 (error codes), MCP 2025-11-25 "Tools" (protocol errors), seed 000
// "Errors" (readable strings for the agent).
import { spawn } from 'node:child_process';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  callFails,
  httpClient,
  initializeRequest,
  journalMark,
  type Mock,
  READ_KEY,
  ROOT,
  RPC_HEADERS,
  rawRequest,
  rpcPost,
  startHttpToolServer,
  startMock,
  stdioClient,
  stopAll,
  WRITE_KEY,
} from './setup.ts';

let mock: Mock;
let mcpUrl = '';

beforeAll(async () => {
  mock = await startMock();
  mcpUrl = (await startHttpToolServer(mock.url)).url;
});
afterAll(stopAll);

/** Nothing of the server's insides: no HTML, no stack frame, no path of this checkout. */
function expectPlainJsonRpcError(
  answer: { headers: Record<string, unknown>; text: string; json: any },
  code: number,
) {
  expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
  expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code } });
  expect(answer.text).not.toMatch(/<html|<pre|\n\s+at |node_modules/i);
  expect(answer.text).not.toContain(ROOT);
}

describe('HTTP bodies that are not a JSON-RPC message (JSON-RPC 2.0 section 5.1)', () => {
  it('malformed JSON gets 400 and a -32700 parse error in JSON, not an HTML page with a stack trace', async () => {
    const answer = await rawRequest(mcpUrl, {
      headers: { ...RPC_HEADERS, 'x-mcp-key': READ_KEY },
      body: '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"',
    });
    expect(answer.status).toBe(400);
    expectPlainJsonRpcError(answer, -32700);
    expect(answer.json.id).toBeNull();
  });

  it('a body over the 1 MB limit gets 413 and a JSON-RPC error naming the limit', async () => {
    const answer = await rawRequest(mcpUrl, {
      headers: { ...RPC_HEADERS, 'x-mcp-key': READ_KEY },
      body: JSON.stringify({ ...initializeRequest(), padding: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(answer.status).toBe(413);
    expectPlainJsonRpcError(answer, -32000);
    expect(answer.json.error.message).toContain('1048576 bytes');
  });

  it('a body of another content type gets 415 in JSON-RPC, and the server still serves the next request', async () => {
    const answer = await rawRequest(mcpUrl, {
      headers: { ...RPC_HEADERS, 'content-type': 'text/plain', 'x-mcp-key': READ_KEY },
      body: JSON.stringify(initializeRequest()),
    });
    expect(answer.status).toBe(415);
    expectPlainJsonRpcError(answer, -32000);
    const next = await rpcPost(mcpUrl, initializeRequest(2), READ_KEY);
    expect(next.status).toBe(200);
    expect(next.json.result.serverInfo.name).toBe('lmskit');
  });

  it('a request to another path gets a JSON 404 that names the endpoint', async () => {
    const answer = await rawRequest(mcpUrl.replace('/mcp', '/.well-known/oauth-protected-resource'), {
      method: 'GET',
    });
    expect(answer.status).toBe(404);
    expectPlainJsonRpcError(answer, -32000);
    expect(answer.json.error.message).toContain('POST /mcp');
  });
});

describe('invalid params are -32602 with a one-line reason (MCP 2025-11-25 "Tools", error handling)', () => {
  const call = (params: unknown) => ({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    ...(params === undefined ? {} : { params }),
  });

  it('tools/call with arguments as a string: -32602 naming params.arguments, no zod dump', async () => {
    const answer = await rpcPost(
      mcpUrl,
      call({ name: 'find_user', arguments: '{"query":"lena"}' }),
      READ_KEY,
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    expect(answer.json.error.message).toMatch(/^Invalid params for tools\/call: params\.arguments: .+\.$/);
    expect(answer.json.error.message).not.toMatch(/[[{]|"code"|MCP error/);
  });

  it('tools/call with no params at all: -32602 naming params', async () => {
    const answer = await rpcPost(mcpUrl, call(undefined), READ_KEY);
    expect(answer.json).toMatchObject({ id: 7, error: { code: -32602 } });
    expect(answer.json.error.message).toMatch(/^Invalid params for tools\/call: params: /);
  });

  it('an argument nested 100 000 arrays deep is an argument error, not an internal error', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const body = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"find_user","arguments":{"query":${deep}}}}`;
    const answer = await rawRequest(mcpUrl, { headers: { ...RPC_HEADERS, 'x-mcp-key': READ_KEY }, body });
    expect(answer.status).toBe(200);
    expect(answer.json.result).toMatchObject({ isError: true });
    expect(answer.json.result.content[0].text).toBe('Invalid arguments for find_user: query must be string.');
  });

  it('an SDK client sees "MCP error -32602:" once, not twice, in front of an unknown tool', async () => {
    const { client } = await httpClient(mcpUrl, READ_KEY);
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toMatch(/^MCP error -32602: Unknown tool: no_such_tool\. /);
    expect((error as McpError).message.match(/MCP error/g)).toHaveLength(1);
  });
});

describe('string arguments are bounded by the tool schemas (mcp-schema maxLength; seed 000 "Errors")', () => {
  it('find_user with a 90 KB query is refused by the tool server, naming the bound; the platform is not called', async () => {
    const { client } = await httpClient(mcpUrl, READ_KEY);
    const mark = await journalMark(mock.url);
    const text = await callFails(client, 'find_user', { query: 'a'.repeat(90 * 1024) });
    expect(text).toBe('Invalid arguments for find_user: query must be at most 254 characters long.');
    expect((await mark.since()).filter((e) => e.path === '/api/v2/users')).toEqual([]);
  });

  it('the platform refusing a request as too large (431) is explained as such, not as "try again later"', async () => {
    const fault = await admin(mock.url, 'POST', '/faults', {
      method: 'GET',
      path: '/api/v2/users',
      count: 1,
      status: 431,
      body: { error: 'Request header fields too large', code: 'HEADERS_TOO_LARGE' },
    });
    expect(fault.status).toBe(201);
    const { client } = await httpClient(mcpUrl, READ_KEY);
    const text = await callFails(client, 'find_user', { query: 'lena' });
    expect(text).toMatch(/too large for the platform \(HTTP 431/);
    expect(text).toMatch(/Shorten the arguments/);
    expect(text).not.toMatch(/try again later/i);
  });

  it('the mock agrees with the tool: a 255-character query straight to /api/v2/users is a 400', async () => {
    const answer = await fetch(`${mock.url}/api/v2/users?query=${'a'.repeat(255)}`, {
      headers: { 'x-mcp-key': WRITE_KEY },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('stdio: stdout carries JSON-RPC only, and bad lines get answers (MCP 2025-11-25 "Transports", stdio)', () => {
  it('garbage, a JSON value that is no message, an over-long line and bad params are answered; the server keeps serving', async () => {
    const child = spawn(process.execPath, ['bin/lmskit.js', 'mcp', '--base-url', mock.url], {
      cwd: ROOT,
      env: { ...process.env, LMSKIT_MCP_KEY: READ_KEY },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const lines = () => out.split('\n').filter(Boolean);
      // initialize may wait for the platform while ping is answered at once: wait for both. No timer
      // of its own: starting the process can take many seconds on a busy machine, and the test's
      // timeout guards against a hang; a server that dies instead of answering fails at once.
      const answered = (ids: number[]) =>
        new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (chunk) => {
            out += chunk;
            const seen = new Set(lines().map((l) => JSON.parse(l).id));
            if (ids.every((id) => seen.has(id))) resolve();
          });
          child.on('exit', (code) => reject(new Error(`exited ${code} before answering ${ids}:\n${out}`)));
        });
      const done = answered([4, 9]);
      child.stdin.write('this is not JSON\n');
      child.stdin.write('{"hello": "world"}\n');
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', pad: 'x'.repeat(1024 * 1024) })}\n`,
      );
      // As the SDK's client writes it: the id last.
      child.stdin.write(
        `${JSON.stringify({ method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) }, jsonrpc: '2.0', id: 5 })}\n`,
      );
      child.stdin.write(`${JSON.stringify(initializeRequest(4))}\n`);
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'find_user', arguments: 'lena' } })}\n`,
      );
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' })}\n`);
      await done;

      const messages = lines().map((l) => JSON.parse(l));
      for (const m of messages) expect(m.jsonrpc).toBe('2.0');
      const errors = messages.filter((m) => m.error).map((m) => [m.id, m.error.code]);
      // A message over 1 MB is answered with its own id (first or last in the line), so its client is
      // not left waiting for a timeout.
      expect(errors).toEqual([
        [null, -32700],
        [null, -32600],
        [3, -32600],
        [5, -32600],
        [8, -32602],
      ]);
      expect(messages.find((m) => m.id === 5)?.error.message).toBe(
        'Invalid Request: a message may be at most 1048576 bytes long.',
      );
      expect(messages.find((m) => m.id === 4)?.result.serverInfo.name).toBe('lmskit');
      expect(messages.find((m) => m.id === 9)).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a stdio SDK client gets -32602 with one prefix for an unknown tool, too', async () => {
    const { client } = await stdioClient(mock.url, READ_KEY);
    const error = (await client.callTool({ name: 'no_such_tool' }).catch((e: unknown) => e)) as McpError;
    expect(error.code).toBe(-32602);
    expect(error.message.match(/MCP error/g)).toHaveLength(1);
  });
});
