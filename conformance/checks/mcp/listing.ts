// The MCP tool server's tools/list (seed 000, Authentication 3: "registers only the tools listed in
// tools"; What the service does 5; the MCP specification): for each key it offers exactly the
// capabilities' tools, never the two that do not exist, with the kit's definitions and read-only
// hints that agree with the tools' scopes. Needs --mcp-url; read-only.
import { isDeepStrictEqual } from 'node:util';
import { type Context, fail, type KeyInfo, pass } from '../../context.ts';
import type { Check, Verdict } from '../../types.ts';
import { who } from '../common/keys.ts';
import { type Listed, withClient } from '../common/mcp-client.ts';
import { ABSENT, TOOLS } from '../common/tools.ts';

export const area = 'mcp.tools';
export const needs = { mcpUrl: true, mcpScope: 'read' as const };

/** Each key's tool listing (the keys of --mcp-key), read once per run. */
export const listings = (ctx: Context) =>
  ctx.once('mcp.listings', async () => {
    const out: { key: KeyInfo; tools: Listed }[] = [];
    for (const key of ctx.keys)
      out.push({ key, tools: await withClient(ctx, key.key, async (c) => (await c.listTools()).tools) });
    return out;
  });

/** A problem of any key's listing fails the check. */
export const forEachListing = async (
  ctx: Context,
  problem: (key: KeyInfo, tools: Listed) => string | null,
): Promise<Verdict> => {
  const problems = (await listings(ctx)).flatMap(({ key, tools }) => {
    const p = problem(key, tools);
    return p ? [`${who(key)}: ${p}`] : [];
  });
  return problems.length ? fail(problems.join('; ')) : pass();
};

export const mcpListingChecks: Check[] = [
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
];
