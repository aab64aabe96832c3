// A call of a tool the key is not offered (not-offered.ts, server.ts): refused and never made, with
// the platform's reason asked by a request that cannot act, or the capabilities' reason; a tool that
// does not exist stays a protocol error (MCP, "Tools": unknown tool → -32602).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../lib/tool-schemas.ts';
import type { Backend, BackendAnswer, BackendRequest } from './backend.ts';
import { notOfferedMessage, probeRequest, reasonFromCapabilities } from './not-offered.ts';
import { ToolServer } from './server.ts';
import { ToolRunner } from './tools.ts';

const TOOLS = new Map(loadTools().map((t) => [t.name, t]));
const tool = (name: string) => {
  const t = TOOLS.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};
const READ_TOOLS = [...TOOLS.values()].filter((t) => t['x-category'] === 'read').map((t) => t.name);
const answer = (status: number, body: unknown): BackendAnswer => ({ status, body, retries: 0 });

describe('the probe: a request of the tool’s operation that cannot change anything', () => {
  it.each([...TOOLS.values()].map((t) => [t.name, t] as const))('%s', (_name, t) => {
    const probe = probeRequest(t);
    const call = t['x-backend'][0];
    if (!probe || !call) throw new Error(`no probe for ${t.name}`);
    expect(probe.method).toBe(call.method);
    // Every integer id of an /api/v2 path has minimum 1: 0 is invalid input, whatever else happens.
    expect(probe.path).not.toMatch(/[{}]/);
    if (call.method === 'GET') return; // a safe method (RFC 9110, 9.2.1)
    // A write carries input the contract refuses: an id 0 in its path or a body that is an array.
    expect(/\/0(\/|$)/.test(probe.path) || Array.isArray(probe.body)).toBe(true);
    expect(probe.form).toBeUndefined();
  });
});

describe('the reason', () => {
  const offeredRead = READ_TOOLS;
  it('a read-only key: the platform’s own sentence when its probe is refused 403', () => {
    const text = notOfferedMessage(
      tool('ban_user'),
      answer(403, {
        error: 'This call needs the write scope: this key has only the read scope.',
        code: 'WRITE_SCOPE_REQUIRED',
      }),
      { tier: 'full', scopes: { read: true, write: false } },
      offeredRead,
      TOOLS,
    );
    expect(text).toMatch(/^ban_user is not offered to this key, so it was not called\. /);
    expect(text).toContain('This call needs the write scope: this key has only the read scope.');
  });

  it('from the capabilities when the platform checks the input first (400): tier, scope, AI, permission', () => {
    const invalid = answer(400, { error: 'body must be object', code: 'VALIDATION_ERROR' });
    const said = (name: string, capabilities: object, offered: string[]) =>
      notOfferedMessage(tool(name), invalid, capabilities, offered, TOOLS);
    expect(said('ban_user', { tier: 'read', scopes: { read: true, write: false } }, offeredRead)).toMatch(
      /allows MCP reads only/,
    );
    expect(said('ban_user', { tier: 'full', scopes: { read: true, write: false } }, offeredRead)).toMatch(
      /this key has only the read scope/,
    );
    // clone_course needs course_edit too: offered, so the owner holds it and the AI switch is off.
    expect(
      said('create_course_from_prompt', { tier: 'full', scopes: { read: true, write: true } }, [
        'clone_course',
      ]),
    ).toMatch(/AI tools are disabled on this workspace\. /);
    expect(
      said('create_course_from_prompt', { tier: 'full', scopes: { read: true, write: true } }, []),
    ).toMatch(/AI tools are disabled on this workspace, or the key's owner lacks the permission course_edit/);
    expect(
      said('get_audit_log', { tier: 'full', scopes: { read: true, write: true } }, ['list_my_assignments']),
    ).toMatch(/The key's owner lacks the permission audit_view/);
  });

  it('names no permission for a tool that needs none', () => {
    expect(
      reasonFromCapabilities(
        tool('list_my_assignments'),
        { tier: 'full', scopes: { read: true } },
        [],
        TOOLS,
      ),
    ).toMatch(/do not list it for this key/);
  });
});

/** A backend that answers the capabilities with `tools` and every other request with `other`. */
function fakeBackend(tools: string[], other: BackendAnswer) {
  const seen: BackendRequest[] = [];
  const backend = {
    baseUrl: 'http://platform.invalid',
    request: async (req: BackendRequest) => {
      seen.push(req);
      return req.path === '/mcp/capabilities'
        ? answer(200, { tier: 'full', scopes: { read: true, write: false }, user: {}, tools, resources: [] })
        : other;
    },
  } as unknown as Backend;
  return { backend, seen };
}

/** An SDK client of a ToolServer over the SDK's in-memory transport. */
async function clientOf(server: ToolServer): Promise<Client> {
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await server.connect(theirs);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(ours);
  return client;
}

describe('a call of a tool the key is not offered', () => {
  const runner = new ToolRunner();
  const scope = answer(403, {
    error: 'This call needs the write scope: this key has only the read scope.',
    code: 'WRITE_SCOPE_REQUIRED',
  });

  it('is a tool error with the platform’s sentence, and the tool’s call is never made', async () => {
    const { backend, seen } = fakeBackend(READ_TOOLS, scope);
    const client = await clientOf(new ToolServer({ backend, runner, version: 'test' }));
    const result = await client.callTool({ name: 'ban_user', arguments: { userId: 13 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining('This call needs the write scope') },
    ]);
    // The capabilities, then the probe: a body the contract refuses, never { userId: 13 }.
    expect(seen.map((r) => [r.method, r.path, r.body])).toEqual([
      ['GET', '/mcp/capabilities', undefined],
      ['POST', '/users/banned', []],
    ]);
  });

  it('even when the platform would act: a probe answered 2xx still ends in a refusal', async () => {
    const { backend } = fakeBackend(READ_TOOLS, answer(200, { userId: 13, status: 'banned' }));
    const client = await clientOf(new ToolServer({ backend, runner, version: 'test' }));
    const result = await client.callTool({ name: 'ban_user', arguments: { userId: 13 } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content as unknown[])[0]).toMatchObject({
      text: expect.stringMatching(/only the read scope/),
    });
  });

  it('a tool that does not exist stays a protocol error, -32602 Unknown tool', async () => {
    const { backend, seen } = fakeBackend(READ_TOOLS, scope);
    const client = await clientOf(new ToolServer({ backend, runner, version: 'test' }));
    await expect(client.callTool({ name: 'extend_deadline', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^MCP error -32602: Unknown tool: extend_deadline\. /),
    });
    expect(seen.filter((r) => r.path !== '/mcp/capabilities')).toEqual([]);
  });
});
