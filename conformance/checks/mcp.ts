// The MCP tool server at --mcp-url (seed 000 and the MCP specification): it offers exactly the
// capabilities' tools, never the two that do not exist, serves the kit's definitions, answers
// structuredContent that validates against each tool's outputSchema, and refuses bad arguments.

import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolAjv, loadTools } from '../../lib/tool-schemas.ts';
import { type Context, fail, type KeyInfo, pass, skip } from '../context.ts';
import type { Check, Verdict } from '../types.ts';
import { v2CourseId, v2UserId } from './helpers.ts';

const S = 'seed 000';
const area = 'mcp.tools';
const TOOLS = loadTools();
const needs = { mcpUrl: true, mcpScope: 'read' as const };

type Listed = Awaited<ReturnType<Client['listTools']>>['tools'];

async function connect(ctx: Context, key: KeyInfo): Promise<Client> {
  const client = new Client({ name: 'lmskit-conformance', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(ctx.config.mcpUrl as string), {
      requestInit: { headers: { 'X-MCP-Key': key.key } },
    }),
  );
  return client;
}

/** Each key's tool listing, read once per run. */
const listings = (ctx: Context) =>
  ctx.once('mcp.listings', async () => {
    const out: { key: KeyInfo; tools: Listed }[] = [];
    for (const key of ctx.keys) {
      const client = await connect(ctx, key);
      try {
        out.push({ key, tools: (await client.listTools()).tools });
      } finally {
        await client.close();
      }
    }
    return out;
  });

const forEachListing = async (
  ctx: Context,
  problem: (key: KeyInfo, tools: Listed) => string | null,
): Promise<Verdict> => {
  const problems = (await listings(ctx)).flatMap(({ key, tools }) => {
    const p = problem(key, tools);
    return p ? [`key …${key.key.slice(-4)}: ${p}`] : [];
  });
  return problems.length ? fail(problems.join('; ')) : pass();
};

/** Valid arguments for each read tool, from what the deployment holds. */
async function readArguments(ctx: Context): Promise<Record<string, Record<string, unknown>>> {
  const userId = await v2UserId(ctx);
  const courseId = await v2CourseId(ctx);
  return {
    find_user: { query: 'a' },
    ...(userId !== undefined
      ? { get_user: { userId }, list_assignments: { userId }, list_certificates: { userId } }
      : {}),
    find_course: { query: 'e' },
    ...(courseId !== undefined ? { get_course: { courseId }, get_compliance_status: { courseId } } : {}),
    list_my_assignments: {},
    get_statistics: { scope: 'overview' },
    get_leaderboard: {},
    get_audit_log: {},
  };
}

export const mcpChecks: Check[] = [
  {
    id: 'mcp.tools.list-equals-capabilities',
    area,
    level: 'MUST',
    source: `${S}, Authentication 3: "registers only the tools listed in tools"`,
    title: 'tools/list offers exactly the tools the capabilities list for the key',
    needs,
    run: (ctx) =>
      forEachListing(ctx, (key, tools) => {
        const listed = tools.map((t) => t.name).sort();
        const wanted = [...key.tools].sort();
        return isDeepStrictEqual(listed, wanted)
          ? null
          : `lists ${listed.join(', ') || 'nothing'}; capabilities: ${wanted.join(', ') || 'nothing'}`;
      }),
  },
  {
    id: 'mcp.tools.no-phantoms',
    area,
    level: 'MUST',
    source: `${S}, What the service does 5: extend_deadline and send_reminder are announced but do not exist`,
    title: 'tools/list never offers extend_deadline or send_reminder',
    needs,
    run: (ctx) =>
      forEachListing(ctx, (_k, tools) =>
        tools.some((t) => ['extend_deadline', 'send_reminder'].includes(t.name))
          ? 'offers a phantom tool'
          : null,
      ),
  },
  {
    id: 'mcp.tools.definitions-match-kit',
    area,
    level: 'SHOULD',
    source:
      'assumed: the tool definitions of mcp-schema/ (titles, descriptions, schemas, annotations the seed leaves open)',
    title: "each listed tool's schemas and annotations equal the kit's definition",
    needs,
    run: (ctx) =>
      forEachListing(ctx, (_k, tools) => {
        const odd = tools.filter((t) => {
          const def = TOOLS.find((d) => d.name === t.name);
          return (
            !def ||
            !isDeepStrictEqual(t.inputSchema, def.inputSchema) ||
            !isDeepStrictEqual(t.outputSchema, def.outputSchema) ||
            !isDeepStrictEqual(t.annotations, def.annotations)
          );
        });
        return odd.length ? `differs for ${odd.map((t) => t.name).join(', ')}` : null;
      }),
  },
  {
    id: 'mcp.tools.annotations-agree-with-scope',
    area,
    level: 'SHOULD',
    source: 'assumed: read tools are read-only, write and AI tools are not (MCP tool annotations)',
    title: 'readOnlyHint is true exactly for the read tools',
    needs,
    run: (ctx) =>
      forEachListing(ctx, (_k, tools) => {
        const odd = tools.filter((t) => {
          const def = TOOLS.find((d) => d.name === t.name);
          return (
            def &&
            def['x-category'] !== 'ai-generation' &&
            (t.annotations?.readOnlyHint === true) !== (def['x-scope'] === 'read')
          );
        });
        return odd.length ? `readOnlyHint disagrees for ${odd.map((t) => t.name).join(', ')}` : null;
      }),
  },
  {
    id: 'mcp.tools.structured-content',
    area,
    level: 'MUST',
    source: `${S}, Read tools; MCP specification: structuredContent conforms to the tool's outputSchema`,
    title: 'each read tool answers structuredContent valid against its listed outputSchema',
    needs,
    run: async (ctx) => {
      const key = ctx.key('read') as KeyInfo;
      const listing = (await listings(ctx)).find((l) => l.key === key);
      const args = await readArguments(ctx);
      const client = await connect(ctx, key);
      const ajv = createToolAjv();
      const problems: string[] = [];
      try {
        for (const tool of listing?.tools ?? []) {
          const given = args[tool.name];
          if (!given) continue;
          const result = await client.callTool({ name: tool.name, arguments: given });
          if (result.isError) {
            problems.push(`${tool.name}: isError — ${JSON.stringify(result.content).slice(0, 200)}`);
            continue;
          }
          const validate = ajv.compile(tool.outputSchema ?? {});
          if (!validate(result.structuredContent))
            problems.push(`${tool.name}: ${ajv.errorsText(validate.errors)}`);
        }
      } finally {
        await client.close();
      }
      return problems.length ? fail(problems.join('; ')) : pass();
    },
  },
  {
    id: 'mcp.tools.bad-arguments',
    area,
    level: 'SHOULD',
    source:
      'assumed: bad arguments give a tool result with isError (MCP specification: tool errors are reported in the result)',
    title:
      'a call with arguments outside the schema (find_user limit 999) answers isError with a readable text',
    needs,
    run: async (ctx) => {
      const client = await connect(ctx, ctx.key('read') as KeyInfo);
      try {
        const result = await client.callTool({ name: 'find_user', arguments: { query: 'a', limit: 999 } });
        const text = JSON.stringify(result.content);
        return result.isError && /limit/i.test(text)
          ? pass()
          : fail(`answered ${text.slice(0, 300)}`, { expected: 'isError: true, naming limit' });
      } finally {
        await client.close();
      }
    },
  },
  {
    id: 'mcp.protocol.unknown-tool',
    area: 'mcp.protocol',
    level: 'MUST',
    source: 'MCP specification: an unknown tool is a JSON-RPC error',
    title: 'calling extend_deadline (which does not exist) is a JSON-RPC error',
    needs,
    run: async (ctx) => {
      const client = await connect(ctx, ctx.key('read') as KeyInfo);
      try {
        const result = await client
          .callTool({ name: 'extend_deadline', arguments: {} })
          .catch((e: Error) => e);
        return result instanceof Error
          ? pass()
          : fail(`answered a result: ${JSON.stringify(result).slice(0, 300)}`);
      } catch {
        return skip('the tool server could not be reached');
      } finally {
        await client.close();
      }
    },
  },
];
