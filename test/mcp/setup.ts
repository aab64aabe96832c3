// Shared harness of the MCP end-to-end tests: the real `lmskit mock` and
// `lmskit mcp` processes, driven by the official SDK client over stdio and Streamable HTTP, the
// mock's admin API (token `t`), the tool definitions of mcp-schema/ and a minimal PDF.
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { createAjv } from '../../lib/ajv.ts';
import { ROOT } from '../../lib/paths.ts';
import { absentToolNames, loadTools, type ToolDefinition } from '../../lib/tool-schemas.ts';
import { demoMcpKey } from '../../mock/seed/demo.ts';
import { freePort, type RunningProcess, type SpawnOptions, startLmskit } from '../e2e/process.ts';

export { ROOT };
export const ADMIN_TOKEN = 'mcp-test-admin-token';
/** The demo keys of Ada, the administrator (user 1): read, and read + write. */
export const READ_KEY = demoMcpKey('read');
export const WRITE_KEY = demoMcpKey('write');
/** 2026-01-01T00:00:00Z, where the demo seed's virtual clock starts. */
export const START = 1_767_225_600;

// Tool definitions, as the files of mcp-schema/ hold them.
export type ToolFile = ToolDefinition;
export const TOOL_FILES: ToolFile[] = loadTools();
export const toolFile = (name: string) => TOOL_FILES.find((t) => t.name === name) as ToolFile;
const namesOf = (categories: ToolFile['x-category'][]) =>
  TOOL_FILES.filter((t) => categories.includes(t['x-category']))
    .map((t) => t.name)
    .sort();
/** Seed 000, "What the service does" 5: the read, write and AI tools, as mcp-schema/ holds them. */
export const READ_TOOLS = namesOf(['read']);
export const WRITE_TOOLS = namesOf(['read', 'write']);
export const ALL_TOOLS = namesOf(['read', 'write', 'ai-generation', 'ai-refinement']);
/** Announced but absent (seed 000, What the service does 5), as mcp-schema/absent.json lists them. */
export const ABSENT_TOOLS = absentToolNames();

/** What tools/list must show of a tool: the file's MCP fields, verbatim. */
export const listingOf = (t: ToolFile) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  outputSchema: t.outputSchema,
  annotations: t.annotations,
});

// An output-schema check of our own, independent of the SDK's (draft-07) one.
const ajv = createAjv('tool');
const outputValidators = new Map(TOOL_FILES.map((t) => [t.name, ajv.compile(t.outputSchema)]));
export function expectMatchesOutputSchema(name: string, value: unknown): void {
  const validate = outputValidators.get(name);
  if (!validate) throw new Error(`no tool ${name}`);
  const valid = validate(value);
  expect(valid, `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

// Processes.

const running: RunningProcess[] = [];
const clients: Client[] = [];

export interface Mock {
  url: string;
  process: RunningProcess;
}

/** One `lmskit mock` on a free port, unlimited per-key rate, admin token `t`, and the given flags. */
export async function startMock(flags: string[] = []): Promise<Mock> {
  const port = await freePort();
  const p = await startLmskit(
    ['mock', '--port', String(port), '--admin-token', ADMIN_TOKEN, '--rate-limit', '0', ...flags],
    /ready/,
  );
  running.push(p);
  return { url: `http://127.0.0.1:${port}`, process: p };
}

/**
 * `lmskit mcp --http` in front of the mock, listening on `host` (a loopback address), with the given
 * flags (and, for a test of permissions run as root, as another user); answers the URL of its /mcp
 * endpoint.
 */
export async function startHttpToolServer(
  mockUrl: string,
  flags: string[] = [],
  host = '127.0.0.1',
  options: SpawnOptions = {},
): Promise<{ url: string; process: RunningProcess }> {
  const port = await freePort();
  const p = await startLmskit(
    ['mcp', '--http', '--port', String(port), '--host', host, '--base-url', mockUrl, ...flags],
    /Streamable HTTP/,
    {},
    options,
  );
  running.push(p);
  return { url: `http://${host}:${port}/mcp`, process: p };
}

/** Closes every client and kills every process this file started. */
export async function stopAll(): Promise<void> {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  for (const p of running.splice(0)) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
}

export const CLIENT_INFO = { name: 'lmskit-e2e', version: '1.0.0' };

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  /** The protocol version the client negotiated (the SDK hands it to transports that take it). */
  protocolVersion: () => string | undefined;
  stderr: () => string;
}

/** A real SDK client running `lmskit mcp` over stdio with the key in LMSKIT_MCP_KEY. */
export async function stdioClient(mockUrl: string, key: string): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/lmskit.js', 'mcp', '--base-url', mockUrl],
    env: { ...(process.env as Record<string, string>), LMSKIT_MCP_KEY: key },
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  let negotiated: string | undefined;
  Object.assign(transport, { setProtocolVersion: (v: string) => (negotiated = v) });
  const client = new Client(CLIENT_INFO);
  clients.push(client);
  await client.connect(transport);
  return { client, transport, protocolVersion: () => negotiated, stderr: () => stderr };
}

/** A real SDK client of the HTTP tool server, sending `X-MCP-Key` with every request. */
export async function httpClient(
  mcpUrl: string,
  key: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { 'X-MCP-Key': key } },
  });
  const client = new Client(CLIENT_INFO);
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

// Raw HTTP, as a client of any make could send it.

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/**
 * One HTTP request with full control: any Host and Origin, any body bytes, and the local (source)
 * address, so tests can be several clients on one machine (127.0.0.2, 127.0.0.3, ... are loopback too).
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'POST',
        headers: options.headers,
        localAddress: options.localAddress,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The headers a Streamable HTTP client sends with a JSON-RPC POST. */
export const RPC_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

export const initializeRequest = (id: number | string = 1, protocolVersion = '2025-11-25') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-client', version: '1.0.0' } },
});

/** A JSON-RPC POST of `message` to the tool server with `key` (none when empty). */
export function rpcPost(
  mcpUrl: string,
  message: unknown,
  key = '',
  more: Record<string, string> = {},
  localAddress?: string,
) {
  return rawRequest(mcpUrl, {
    headers: { ...RPC_HEADERS, ...(key ? { 'x-mcp-key': key } : {}), ...more },
    body: JSON.stringify(message),
    localAddress,
  });
}

// The mock's admin API.

export async function admin(
  mockUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${mockUrl}/__admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The demo state again: fresh seed, clock at START, default licence (full, AI on). */
export async function resetMock(mockUrl: string): Promise<void> {
  expect((await admin(mockUrl, 'POST', '/reset', { seed: 'demo' })).status).toBe(200);
  expect((await admin(mockUrl, 'DELETE', '/faults')).status).toBe(200);
}

export async function setTenant(
  mockUrl: string,
  patch: { mcpAccess?: 'none' | 'read' | 'full'; mcpAiAccess?: boolean },
): Promise<void> {
  expect((await admin(mockUrl, 'PATCH', '/tenants/demo', patch)).status).toBe(200);
}

/** A new MCP key through the admin API (the seed's settings UI); its own AI quota. */
export async function createKey(
  mockUrl: string,
  userId: number,
  scopes: ('read' | 'write')[],
): Promise<{ id: string; key: string }> {
  const created = await admin(mockUrl, 'POST', '/tenants/demo/mcp-keys', { userId, scopes });
  expect(created.status).toBe(201);
  return { id: created.body.id, key: created.body.key };
}

export async function advanceClock(mockUrl: string, seconds: number): Promise<void> {
  expect((await admin(mockUrl, 'POST', '/clock/advance', { seconds })).status).toBe(200);
}

export interface JournalEntry {
  method: string;
  path: string;
  status: number;
  api: string;
}

/**
 * Marks the request journal; `since()` then answers, oldest first, the requests the mock answered
 * after the mark (the mark is a request to a path no one else uses).
 */
export async function journalMark(mockUrl: string): Promise<{ since: () => Promise<JournalEntry[]> }> {
  const mark = `/__mark/${randomUUID()}`;
  await fetch(`${mockUrl}${mark}`);
  return {
    since: async () => {
      const { body } = await admin(mockUrl, 'GET', '/journal?limit=1000');
      const entries = body.requests as JournalEntry[];
      const at = entries.findIndex((e) => e.path === mark);
      expect(at, 'the journal mark').toBeGreaterThanOrEqual(0);
      return entries.slice(0, at).reverse();
    },
  };
}

// Tool results.

export const textOf = (result: CallToolResult | Record<string, unknown>): string => {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
};

export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful call: no isError, structuredContent valid against the tool's outputSchema. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await call(client, name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(result.structuredContent).toBeDefined();
  expectMatchesOutputSchema(name, result.structuredContent);
  // The text content carries the same JSON, for clients that ignore structuredContent.
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as any;
}

/** A failed call: isError true and a sentence (not a stack, not bare JSON). */
export async function callFails(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await call(client, name, args);
  expect(result.isError, `${name} should fail, got ${textOf(result)}`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const text = textOf(result);
  // A sentence (it may open with a tool name or a path), not JSON and not a stack trace.
  expect(text).toMatch(/^\S.{10,}[.!)]$/s);
  expect(text).not.toMatch(/^[{[]|\n\s+at |undefined|\[object Object\]/);
  return text;
}

/** Waits for a promise, failing after `ms` instead of hanging the suite. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)),
  ]);
}

// Files.

/** A minimal valid one-page PDF whose page shows `text` (Helvetica, one text object). */
export { minimalPdf } from '../../conformance/fixtures.ts';
