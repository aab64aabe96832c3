// Calling the MCP tool server's tools (seed 000, "Endpoints", "Errors"; the MCP specification):
// each read tool answers structuredContent valid against its outputSchema; find_user passes its
// query to the backend; a tool the key is not offered is refused; a backend error becomes a readable
// tool result and bad arguments a tool error; an unknown tool is a protocol error; each tool's input
// schema has the parameters seed 000 names; list_assignments takes exactly one of userId and groupId.
// Needs --mcp-url; read-only.

import type { ToolInputs, ToolName, ToolNameOf } from '../../../generated/tools/index.ts';
import { createToolAjv } from '../../../lib/tool-schemas.ts';
import { type Context, fail, type KeyInfo, pass } from '../../context.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { UNKNOWN_ID, v2CourseId, v2GroupId } from '../common/discover.ts';
import { type Called, callOrError, refusalOf, refused, textOf, withClient } from '../common/mcp-client.ts';
import { ABSENT, TOOLS } from '../common/tools.ts';
import { area, forEachListing, listings, needs } from './listing.ts';

/** The read key (a read-only one preferred). */
const reader = (ctx: Context) => {
  const key = ctx.key('read');
  if (!key) throw new Incomplete('no MCP key was accepted');
  return key;
};

/** The read key, when it is offered the tool a check calls; incomplete otherwise. */
const readerOffered = (ctx: Context, tool: string) => {
  const key = reader(ctx);
  if (!key.tools.includes(tool)) throw new Incomplete(`the read key is not offered ${tool}`);
  return key;
};

/** Arguments that name nothing that exists, from a tool's input schema: a call changes nothing. */
export function harmlessArguments(tool: (typeof TOOLS)[number]): Record<string, unknown> {
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

/**
 * Valid arguments for each read tool, from what the deployment holds, or why the tool cannot be
 * called there. Keyed by the read tools' names: a new read tool is a compile error here until it has
 * its arguments, so no tool goes uncalled unnoticed.
 */
async function readArguments(
  ctx: Context,
  owner: number,
): Promise<{ [K in ToolNameOf<'read'>]: ToolInputs[K] | { cannot: string } }> {
  const courseId = await v2CourseId(ctx).catch(() => undefined);
  const course = courseId !== undefined ? { courseId } : { cannot: 'the deployment lists no course' };
  return {
    find_user: { query: 'a' },
    get_user: { userId: owner },
    list_assignments: { userId: owner },
    list_certificates: { userId: owner },
    find_course: { query: 'e' },
    get_course: course,
    get_compliance_status: course,
    list_my_assignments: {},
    get_statistics: { scope: 'overview' },
    get_leaderboard: {},
    get_audit_log: {},
  };
}

/**
 * The parameter names seed 000 gives each tool (Endpoints: "Parameter names are given where the
 * tool's documentation names them"); those written `<role>` are left out, their names not shown.
 */
const SEED_PARAMETERS: { [K in ToolName]: (keyof ToolInputs[K] & string)[] } = {
  find_user: ['query', 'limit'],
  get_user: ['userId'],
  find_course: ['query', 'limit'],
  get_course: ['courseId'],
  list_assignments: ['userId', 'groupId'],
  list_my_assignments: [],
  get_compliance_status: ['courseId', 'groupId'],
  list_certificates: ['userId'],
  get_statistics: ['scope'],
  get_leaderboard: ['limit'],
  get_audit_log: [],
  assign_training: ['courseId', 'userId'],
  bulk_assign: ['groupId'],
  assign_chain: ['chainId'],
  ban_user: ['userId'],
  unban_user: ['userId'],
  change_user_email: ['userId'],
  clone_course: ['courseId'],
  upload_source_material: ['sessionId'],
  create_course_from_prompt: ['prompt'],
  create_course_from_files: ['prompt', 'sessionId'],
  get_course_generation_status: ['jobId'],
  refine_course: ['courseId', 'feedback'],
  regenerate_question: ['questionId', 'feedback'],
  regenerate_lesson: ['lessonId', 'feedback'],
};

export const mcpCallChecks: Check[] = [
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
      const uncalled: string[] = [];
      const problems = await withClient(ctx, key.key, async (client) => {
        const out: string[] = [];
        for (const tool of listing?.tools ?? []) {
          const given = (args as Record<string, Record<string, unknown> | { cannot: string }>)[tool.name];
          if (!given || 'cannot' in given) {
            uncalled.push(`${tool.name} (${given ? given.cannot : 'the suite has no arguments for it'})`);
            continue;
          }
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
      if (problems.length) return fail(problems.join('; '));
      // A listed tool the check could not call is not judged: say which, never pass over it.
      if (uncalled.length) throw new Incomplete(`not called: ${uncalled.join(', ')}`);
      return pass();
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
      const key = readerOffered(ctx, 'find_user');
      const result = await withClient(ctx, key.key, (c) =>
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
      const performed = await withClient(ctx, key.key, async (client) => {
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
      const key = readerOffered(ctx, 'get_user');
      const result = await withClient(ctx, key.key, (c) =>
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
      const result = await withClient(ctx, reader(ctx).key, (c) =>
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
      const result = await withClient(ctx, reader(ctx).key, (c) =>
        c.callTool({ name: ABSENT[0] as string, arguments: {} }).catch((e: Error) => e),
      );
      return result instanceof Error
        ? pass()
        : fail(`answered a result: ${JSON.stringify(result).slice(0, 300)}`);
    },
  },
  {
    id: 'mcp.tools.parameter-names',
    area,
    level: 'MUST',
    rules: ['000/tool-server.parameter-names'],
    title:
      "each listed tool's input schema has the parameters seed 000 names for it (query, limit, userId, groupId, courseId, scope, sessionId, jobId, feedback, prompt, questionId, lessonId, chainId)",
    needs,
    run: (ctx) =>
      forEachListing(ctx, (_k, tools) => {
        const missing = tools.flatMap((t) => {
          const props = Object.keys((t.inputSchema.properties ?? {}) as Record<string, unknown>);
          // A deployment may list a tool this kit does not know: the seed names no parameter of it.
          const seed: readonly string[] = (SEED_PARAMETERS as Record<string, string[]>)[t.name] ?? [];
          const absent = seed.filter((p) => !props.includes(p));
          return absent.length
            ? [`${t.name} has no ${absent.join(', ')} (it has ${props.join(', ') || 'none'})`]
            : [];
        });
        return missing.length ? missing.join('; ') : null;
      }),
  },
  {
    id: 'mcp.tools.list-assignments.exactly-one',
    area,
    level: 'MUST',
    rules: ['000/list-assignments.exactly-one'],
    title:
      'list_assignments with both userId and groupId, or with neither, is refused; with exactly one it answers',
    needs,
    run: async (ctx) => {
      const key = readerOffered(ctx, 'list_assignments');
      const userId = key.user.id;
      const groupId = await v2GroupId(ctx);
      const problems = await withClient(ctx, key.key, async (client) => {
        const out: string[] = [];
        for (const args of [{ userId, groupId }, {}]) {
          const r = await callOrError(client, 'list_assignments', args);
          if (!refused(r))
            out.push(`list_assignments ${JSON.stringify(args)} answered a result: ${textOf(r as Called)}`);
        }
        for (const args of [{ userId }, { groupId }]) {
          const r = await callOrError(client, 'list_assignments', args);
          if (refused(r)) out.push(`list_assignments ${JSON.stringify(args)} was refused: ${refusalOf(r)}`);
        }
        return out;
      });
      return problems.length ? fail(problems.join('; ')) : pass();
    },
  },
];
