// The MCP tool server at --mcp-url (seed 000 and the MCP specification): it offers exactly the
// capabilities' tools, never the two that do not exist, acts as the key's owner (a tool the key is
// not offered is refused), calls the backend with the tool's parameters, turns backend errors into
// readable results, answers structuredContent that validates against each tool's outputSchema, and
// answers an unknown tool with a protocol error.

import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { absentToolNames, createToolAjv, loadTools } from '../../lib/tool-schemas.ts';
import { type Context, fail, type KeyInfo, pass } from '../context.ts';
import { Incomplete } from '../outcomes.ts';
import type { Check, Verdict } from '../types.ts';
import { UNKNOWN_ID, v2CourseId } from './helpers.ts';

const area = 'mcp.tools';
const TOOLS = loadTools();
/** Announced by the seed, absent from the platform (mcp-schema/index.json, `absent`). */
const ABSENT = absentToolNames();
const needs = { mcpUrl: true, mcpScope: 'read' as const };

type Listed = Awaited<ReturnType<Client['listTools']>>['tools'];
type Called = Awaited<ReturnType<Client['callTool']>>;

async function connect(ctx: Context, key: KeyInfo): Promise<Client> {
  const client = new Client({ name: 'lmskit-conformance', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(ctx.config.mcpUrl as string), {
      requestInit: { headers: { 'X-MCP-Key': key.key } },
    }),
  );
  return client;
}

/** Runs `use` with a client for the key, closed afterwards. */
async function withClient<T>(ctx: Context, key: KeyInfo, use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(ctx, key);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** The read key (a read-only one preferred). */
const reader = (ctx: Context) => {
  const key = ctx.key('read');
  if (!key) throw new Incomplete('no MCP key was accepted');
  return key;
};

/** Each key's tool listing, read once per run. */
const listings = (ctx: Context) =>
  ctx.once('mcp.listings', async () => {
    const out: { key: KeyInfo; tools: Listed }[] = [];
    for (const key of ctx.keys)
      out.push({ key, tools: await withClient(ctx, key, async (c) => (await c.listTools()).tools) });
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

const textOf = (result: Called) => JSON.stringify(result.content ?? '').slice(0, 300);

/** Valid arguments for each read tool, from what the deployment holds. */
async function readArguments(ctx: Context, owner: number): Promise<Record<string, Record<string, unknown>>> {
  const courseId = await v2CourseId(ctx).catch(() => undefined);
  return {
    find_user: { query: 'a' },
    get_user: { userId: owner },
    list_assignments: { userId: owner },
    list_certificates: { userId: owner },
    find_course: { query: 'e' },
    ...(courseId !== undefined ? { get_course: { courseId }, get_compliance_status: { courseId } } : {}),
    list_my_assignments: {},
    get_statistics: { scope: 'overview' },
    get_leaderboard: {},
    get_audit_log: {},
  };
}

/** Arguments that name nothing that exists, from a tool's input schema: a call changes nothing. */
function harmlessArguments(tool: (typeof TOOLS)[number]): Record<string, unknown> {
  const props = tool.inputSchema.properties as Record<string, { type?: string; format?: string }>;
  return Object.fromEntries(
    (tool.inputSchema.required as string[]).map((name) => {
      const p = props[name] ?? {};
      const value =
        p.type === 'integer'
          ? UNKNOWN_ID
          : p.type === 'array'
            ? [UNKNOWN_ID]
            : p.format === 'email'
              ? 'nobody@example.invalid'
              : name === 'filePath'
                ? '/nonexistent/lmskit-probe.pdf'
                : 'lmskit-probe';
      return [name, value];
    }),
  );
}

export const mcpChecks: Check[] = [
  {
    id: 'mcp.tools.list-equals-capabilities',
    area,
    level: 'MUST',
    rules: ['000/tool-server.offered'],
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
    rules: ['000/tool-server.absent-tools'],
    title: `tools/list never offers ${ABSENT.join(' or ')}`,
    needs,
    run: (ctx) =>
      forEachListing(ctx, (_k, tools) =>
        tools.some((t) => ABSENT.includes(t.name)) ? 'offers a phantom tool' : null,
      ),
  },
  {
    id: 'mcp.tools.definitions-match-kit',
    area,
    level: 'SHOULD',
    rules: ['000/tool-server.offered'],
    assumption:
      'the tool definitions of mcp-schema/ (titles, descriptions, schemas, annotations the seed leaves open)',
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
    rules: ['000/tool-server.offered'],
    assumption: 'read tools are read-only, write and AI tools are not (MCP tool annotations)',
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
    rules: ['mcp/structured-content', '000/tool-server.offered-callable'],
    title: 'each read tool answers structuredContent valid against its listed outputSchema',
    needs,
    run: async (ctx) => {
      const key = reader(ctx);
      const listing = (await listings(ctx)).find((l) => l.key === key);
      const args = await readArguments(ctx, key.user.id);
      const ajv = createToolAjv();
      const problems = await withClient(ctx, key, async (client) => {
        const out: string[] = [];
        for (const tool of listing?.tools ?? []) {
          const given = args[tool.name];
          if (!given) continue;
          const result = await client.callTool({ name: tool.name, arguments: given });
          if (result.isError) {
            out.push(`${tool.name}: isError — ${textOf(result)}`);
            continue;
          }
          const validate = ajv.compile(tool.outputSchema ?? {});
          if (!validate(result.structuredContent))
            out.push(`${tool.name}: ${ajv.errorsText(validate.errors)}`);
        }
        return out;
      });
      return problems.length ? fail(problems.join('; ')) : pass();
    },
  },
  {
    id: 'mcp.tools.find-user-query',
    area,
    level: 'MUST',
    rules: ['000/tool-server.backend', '000/find-user'],
    title: "find_user with the key owner's e-mail finds the owner, and only users that match it",
    needs,
    run: async (ctx) => {
      const key = reader(ctx);
      if (!key.tools.includes('find_user')) throw new Incomplete('the read key is not offered find_user');
      const result = await withClient(ctx, key, (c) =>
        c.callTool({ name: 'find_user', arguments: { query: key.user.email } }),
      );
      if (result.isError) return fail(`find_user answered isError: ${textOf(result)}`);
      const users = (result.structuredContent as { users?: { id: number; email: string }[] } | undefined)
        ?.users;
      if (!users)
        throw new Incomplete('find_user answers no structuredContent.users (the kit assumed that shape)');
      const odd = users.filter((u) => !u.email.toLowerCase().includes(key.user.email.toLowerCase()));
      return users.some((u) => u.id === key.user.id) && !odd.length
        ? pass()
        : fail(
            `find_user "${key.user.email}" answered ${users.map((u) => u.email).join(', ') || 'no user'}`,
            {
              expected: `user ${key.user.id} (${key.user.email}), and only users matching it`,
              received: textOf(result),
            },
          );
    },
  },
  {
    id: 'mcp.tools.not-offered-refused',
    area,
    level: 'MUST',
    rules: ['000/tool-server.acts-as-owner', '000/tool-server.offered'],
    title: 'a tool the key is not offered is refused when called anyway (protocol error or isError)',
    needs: { ...needs, readOnlyKey: true },
    run: async (ctx) => {
      const key = ctx.readOnlyKey() as KeyInfo;
      // AI tools are left out: a server that wrongly performed one would spend the AI quota.
      const tools = TOOLS.filter((t) => !key.tools.includes(t.name) && !t['x-ai-quota']);
      const performed = await withClient(ctx, key, async (client) => {
        const out: string[] = [];
        for (const tool of tools) {
          const result = await client
            .callTool({ name: tool.name, arguments: harmlessArguments(tool) })
            .catch(() => undefined);
          if (result && !result.isError) out.push(`${tool.name} answered a result: ${textOf(result)}`);
        }
        return out;
      });
      return performed.length ? fail(performed.join('; ')) : pass();
    },
  },
  {
    id: 'mcp.tools.backend-error-readable',
    area,
    level: 'MUST',
    rules: ['000/tool-server.errors'],
    title:
      'a backend error (get_user of an unknown user) becomes a tool result with isError and a readable text',
    needs,
    run: async (ctx) => {
      const key = reader(ctx);
      if (!key.tools.includes('get_user')) throw new Incomplete('the read key is not offered get_user');
      const result = await withClient(ctx, key, (c) =>
        c.callTool({ name: 'get_user', arguments: { userId: UNKNOWN_ID } }).catch((e: Error) => e),
      );
      if (result instanceof Error)
        return fail(`a protocol error instead of a tool result: ${result.message}`);
      const text =
        (result.content as { type: string; text?: string }[] | undefined)?.find((c) => c.type === 'text')
          ?.text ?? '';
      return result.isError && /[a-z]{3,}.*[a-z]{3,}/i.test(text)
        ? pass()
        : fail(`answered ${textOf(result)}`, { expected: 'isError: true with a sentence' });
    },
  },
  {
    id: 'mcp.tools.bad-arguments',
    area,
    level: 'SHOULD',
    rules: ['000/tool-server.errors'],
    assumption:
      'bad arguments give a tool result with isError (MCP specification: tool errors are reported in the result)',
    title: 'a call with arguments outside the schema (find_user limit 999) answers isError naming limit',
    needs,
    run: async (ctx) => {
      const result = await withClient(ctx, reader(ctx), (c) =>
        c.callTool({ name: 'find_user', arguments: { query: 'a', limit: 999 } }),
      );
      return result.isError && /limit/i.test(textOf(result))
        ? pass()
        : fail(`answered ${textOf(result)}`, { expected: 'isError: true, naming limit' });
    },
  },
  {
    id: 'mcp.protocol.unknown-tool',
    area: 'mcp.protocol',
    level: 'MUST',
    rules: ['mcp/unknown-tool'],
    title: `calling ${ABSENT[0]} (which does not exist) is a JSON-RPC error`,
    needs,
    run: async (ctx) => {
      const result = await withClient(ctx, reader(ctx), (c) =>
        c.callTool({ name: ABSENT[0] as string, arguments: {} }).catch((e: Error) => e),
      );
      return result instanceof Error
        ? pass()
        : fail(`answered a result: ${JSON.stringify(result).slice(0, 300)}`);
    },
  },
];
