// End to end over stdio: the official SDK client runs `lmskit mcp` as an agent's
// host would, against the real `lmskit mock` process. Tool lists per key and licence, the protocol
// handshake, and every tool called once with valid and once with invalid arguments.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ABSENT_TOOLS,
  ALL_TOOLS,
  callFails,
  createKey,
  listingOf,
  type Mock,
  minimalPdf,
  READ_KEY,
  READ_TOOLS,
  ROOT,
  resetMock,
  setTenant,
  startMock,
  stdioClient,
  stopAll,
  toolFile,
  WRITE_KEY,
  WRITE_TOOLS,
} from './setup.ts';
import { type CaseContext, toolCaseTests } from './tool-cases.ts';

const dir = mkdtempSync(join(tmpdir(), 'lmskit-mcp-stdio-'));
let mock: Mock;

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

describe('tools/list over stdio (seed 000 "What the service does" 3 and 5, "Authentication" 3–4)', () => {
  afterAll(async () => {
    await resetMock(mock.url);
  });

  it('a read key is offered the read tools', async () => {
    const session = await stdioClient(mock.url, READ_KEY);
    const listed = await names(session.client);
    expect(listed).toEqual(READ_TOOLS);
    expect(session.stderr()).toContain(`${READ_TOOLS.length} tools for this key`);
  });

  it('a write key on a `full` tenant without AI (mcpAiAccess false) is offered the read and write tools', async () => {
    await setTenant(mock.url, { mcpAccess: 'full', mcpAiAccess: false });
    try {
      const session = await stdioClient(mock.url, WRITE_KEY);
      const listed = await names(session.client);
      expect(listed).toHaveLength(WRITE_TOOLS.length);
      expect(listed).toEqual(WRITE_TOOLS);
    } finally {
      await setTenant(mock.url, { mcpAiAccess: true });
    }
  });

  it('a write key with AI is offered every tool, never an absent one', async () => {
    const session = await stdioClient(mock.url, WRITE_KEY);
    const listed = await names(session.client);
    expect(listed).toHaveLength(ALL_TOOLS.length);
    expect(listed).toEqual(ALL_TOOLS);
    for (const absent of ABSENT_TOOLS) expect(listed).not.toContain(absent);
  });

  it('each listed tool is its mcp-schema file verbatim: name, title, description, inputSchema, outputSchema, annotations', async () => {
    const session = await stdioClient(mock.url, WRITE_KEY);
    const { tools } = await session.client.listTools();
    expect(tools).toHaveLength(ALL_TOOLS.length);
    for (const tool of tools) expect(tool).toStrictEqual(listingOf(toolFile(tool.name)));
  });
});

describe('protocol over stdio (MCP 2025-11-25 lifecycle, version negotiation)', () => {
  it('negotiates protocol version 2025-11-25 and declares the tools capability with listChanged', async () => {
    const session = await stdioClient(mock.url, READ_KEY);
    expect(session.protocolVersion()).toBe('2025-11-25');
    expect(session.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(session.client.getServerVersion()).toMatchObject({ name: 'lmskit', version: expect.any(String) });
  });

  it('accepts a client that asks for the older protocol version 2025-03-26 and answers with it', async () => {
    const child = spawn(process.execPath, ['bin/lmskit.js', 'mcp', '--base-url', mock.url], {
      cwd: ROOT,
      env: { ...process.env, LMSKIT_MCP_KEY: READ_KEY },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const firstLine = new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const end = out.indexOf('\n');
          if (end >= 0) resolve(out.slice(0, end));
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-03-26',
            capabilities: {},
            clientInfo: { name: 'older-client', version: '0.1.0' },
          },
        })}\n`,
      );
      const answer = JSON.parse(await firstLine);
      expect(answer.id).toBe(1);
      expect(answer.error).toBeUndefined();
      expect(answer.result.protocolVersion).toBe('2025-03-26');
      expect(answer.result.capabilities.tools).toEqual({ listChanged: true });
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('every tool over stdio, write key with AI (seed 000 "Endpoints", "Limits")', () => {
  const ctx: CaseContext = { pdfPath: join(dir, 'handout.pdf') };
  let client: Client;
  beforeAll(async () => {
    await resetMock(mock.url);
    writeFileSync(ctx.pdfPath, minimalPdf('Photosynthesis turns light into sugar in the leaves of plants'));
    // A key of its own: the table makes 5 AI calls, the whole daily quota of one key.
    const { key } = await createKey(mock.url, 1, ['read', 'write']);
    client = (await stdioClient(mock.url, key)).client;
    // tools/list first, so the SDK client validates structuredContent against each outputSchema.
    expect(await names(client)).toEqual(ALL_TOOLS);
  });

  toolCaseTests(() => ({ client, mockUrl: mock.url, ctx }));
});

describe('argument errors read as one consistent sentence (seed 000 "Errors")', () => {
  let client: Client;
  beforeAll(async () => {
    client = (await stdioClient(mock.url, WRITE_KEY)).client;
  });

  it('list_assignments with both ids asks for exactly one of them', async () => {
    const text = await callFails(client, 'list_assignments', { userId: 6, groupId: 1 });
    expect(text).toBe('Invalid arguments for list_assignments: give exactly one of userId or groupId.');
  });

  it('list_assignments with neither id, and assign_chain with neither users nor groups, do not claim both are required', async () => {
    const neither = await callFails(client, 'list_assignments', {});
    expect(neither).toContain('give exactly one of userId or groupId');
    expect(neither).not.toMatch(/userId is required|groupId is required/);
    const chain = await callFails(client, 'assign_chain', { chainId: 1 });
    expect(chain).toContain('give at least one of userIds or groupIds');
    expect(chain).not.toMatch(/userIds is required|groupIds is required/);
  });
});
