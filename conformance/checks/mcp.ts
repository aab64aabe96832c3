// The MCP tool server at --mcp-url (seed 000 and the MCP specification): it offers exactly the
// capabilities' tools, never the two that do not exist, acts as the key's owner (a tool the key is
// not offered is refused), calls the backend with the tool's parameters, turns backend errors into
// readable results, answers structuredContent that validates against each tool's outputSchema, and
// answers an unknown tool with a protocol error.

import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { absentToolNames, createToolAjv, loadTools } from '../../lib/tool-schemas.ts';
import { type Context, evidenceOf, fail, type KeyInfo, pass } from '../context.ts';
import { minimalPdf } from '../fixtures.ts';
import { Incomplete, Skipped } from '../outcomes.ts';
import type { Check, Verdict } from '../types.ts';
import { readAssumed, UNKNOWN_ID, v2CourseId, v2GroupId } from './helpers.ts';
import { assignmentsOf, freshGroup, ROLES, who } from './permissions.ts';

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

/**
 * The parameter names seed 000 gives each tool (Endpoints: "Parameter names are given where the
 * tool's documentation names them"); those written `<role>` are left out, their names not shown.
 */
const SEED_PARAMETERS: Record<string, string[]> = {
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

/** A tool call that may fail as a protocol error: the error, or the result. */
const callOrError = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }).catch((e: Error) => e);

/** Refused: a protocol error, or a result with isError. */
const refused = (r: Called | Error) => r instanceof Error || r.isError === true;

/** The course ids of a list_my_assignments answer (the kit's names: `assignments[].courseId`). */
const courseIdsOf = (body: unknown) => {
  const rows = (body as { assignments?: { courseId?: unknown }[] } | undefined)?.assignments;
  return Array.isArray(rows)
    ? [...new Set(rows.map((r) => Number(r.courseId)))].sort((a, b) => a - b).join()
    : undefined;
};

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
          const absent = (SEED_PARAMETERS[t.name] ?? []).filter((p) => !props.includes(p));
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
      const key = reader(ctx);
      if (!key.tools.includes('list_assignments'))
        throw new Incomplete('the read key is not offered list_assignments');
      const userId = key.user.id;
      const groupId = await v2GroupId(ctx);
      const problems = await withClient(ctx, key, async (client) => {
        const out: string[] = [];
        for (const args of [{ userId, groupId }, {}]) {
          const r = await callOrError(client, 'list_assignments', args);
          if (!refused(r))
            out.push(`list_assignments ${JSON.stringify(args)} answered a result: ${textOf(r as Called)}`);
        }
        for (const args of [{ userId }, { groupId }]) {
          const r = await callOrError(client, 'list_assignments', args);
          if (refused(r))
            out.push(
              `list_assignments ${JSON.stringify(args)} was refused: ${r instanceof Error ? r.message : textOf(r)}`,
            );
        }
        return out;
      });
      return problems.length ? fail(problems.join('; ')) : pass();
    },
  },
  {
    id: 'mcp.tools.bulk-assign.every-course',
    area,
    level: 'MUST',
    rules: ['000/bulk-assign.every-course', '000/bulk-assign'],
    title: "bulk_assign of two courses to a group assigns both: the group's assignments list each",
    needs: { mcpUrl: true, mcpScope: 'write', writes: true, apiKey: true },
    run: async (ctx) => {
      const key = ctx.key('write') as KeyInfo;
      if (!key.tools.includes('bulk_assign'))
        throw new Skipped('the write key given is not offered bulk_assign (--mcp-key)');
      const list = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
      const courseIds = ((list.body as { courses?: { id: number }[] })?.courses ?? [])
        .slice(0, 2)
        .map((c) => c.id);
      if (courseIds.length < 2) throw new Incomplete('the deployment has fewer than two courses');
      const group = await freshGroup(ctx, 'bulk');
      const result = await withClient(ctx, key, (c) =>
        callOrError(c, 'bulk_assign', { groupId: group.id, courseIds }),
      );
      if (refused(result))
        return fail(`bulk_assign was refused: ${result instanceof Error ? result.message : textOf(result)}`);
      const { e, courses } = await assignmentsOf(ctx, { groupId: group.id });
      const missing = courseIds.filter((c) => !courses.includes(c));
      return missing.length
        ? fail(
            `after bulk_assign of courses ${courseIds.join(', ')}, group ${group.id} has no assignment of ${missing.join(', ')}`,
            evidenceOf(e, `assignments of courses ${courseIds.join(', ')}`),
          )
        : pass();
    },
  },
  {
    id: 'mcp.tools.role-keys.act-as-owner',
    area,
    level: 'MUST',
    rules: ['000/tool-server.acts-as-owner', '000/tool-server.offered', '000/list-my-assignments.any-role'],
    title:
      "for each role key the tool server lists exactly its capabilities' tools, refuses the others, and list_my_assignments answers that owner's courses",
    needs: { mcpUrl: true, mcpScope: 'read', roles: [...ROLES] },
    run: async (ctx) => {
      const problems: string[] = [];
      for (const role of ROLES) {
        const key = ctx.roleKey(role) as KeyInfo;
        const own = await ctx.v2.call('listMyAssignments', { headers: { 'x-mcp-key': key.key } });
        const expected = readAssumed(own, "the owner's assigned courses", courseIdsOf);
        await withClient(ctx, key, async (client) => {
          const listed = (await client.listTools()).tools.map((t) => t.name).sort();
          const wanted = [...key.tools].sort();
          if (!isDeepStrictEqual(listed, wanted))
            problems.push(
              `${who(key)}: lists ${listed.join(', ') || 'nothing'}; capabilities: ${wanted.join(', ')}`,
            );
          // AI tools are left out: a server that wrongly performed one would spend the AI quota.
          for (const t of TOOLS.filter((d) => !key.tools.includes(d.name) && !d['x-ai-quota'])) {
            const r = await callOrError(client, t.name, harmlessArguments(t));
            if (!refused(r))
              problems.push(`${who(key)}: ${t.name}, not offered, answered ${textOf(r as Called)}`);
          }
          const mine = await callOrError(client, 'list_my_assignments', {});
          if (refused(mine)) {
            problems.push(
              `${who(key)}: list_my_assignments was refused: ${mine instanceof Error ? mine.message : textOf(mine)}`,
            );
            return;
          }
          const got = courseIdsOf((mine as Called).structuredContent);
          if (got === undefined)
            throw new Incomplete(
              'list_my_assignments answers no structuredContent.assignments (the kit assumed that shape)',
            );
          if (got !== expected)
            problems.push(
              `${who(key)}: list_my_assignments through the tool server lists courses ${got || 'none'}, the key's owner has ${expected || 'none'}`,
            );
        });
      }
      return problems.length ? fail(problems.join('; ')) : pass();
    },
  },
  ...auditParameterChecks(),
  {
    id: 'mcp.tools.upload.file-path',
    area,
    level: 'MUST',
    rules: ['000/upload.file-path', '000/upload.result'],
    title:
      'upload_source_material uploads the file at the absolute path it is given (a PDF the suite wrote into --upload-dir): the result names its file and session',
    needs: { mcpUrl: true, mcpScope: 'write', writes: true, uploadDir: true },
    run: async (ctx) => {
      const key = ctx.keyFor('uploadSourceMaterial');
      if (!key?.tools.includes('upload_source_material'))
        throw new Skipped('no key given is offered upload_source_material (--mcp-key)');
      const name = `${ctx.runId}-source.pdf`;
      const path = join(resolve(ctx.config.uploadDir as string), name);
      await writeFile(path, minimalPdf('Tidal locking keeps one face of a moon turned to its planet.'));
      ctx.cleanup(async () => {
        await rm(path, { force: true });
        return undefined;
      });
      const result = await withClient(ctx, key, (c) =>
        callOrError(c, 'upload_source_material', { filePath: path }),
      );
      if (refused(result))
        return fail(
          `upload_source_material of ${path} was refused: ${result instanceof Error ? result.message : textOf(result)}`,
        );
      // Seed 000: the result is {sessionId, filename, chunkCount, message}; the file's own name, by value.
      const answered = result as Called;
      const text = JSON.stringify([answered.structuredContent ?? null, answered.content ?? null]);
      return text.includes(name) && /sessionId/.test(text)
        ? pass()
        : fail(`the result does not name the uploaded file ${name} and its session: ${textOf(answered)}`);
    },
  },
];

/**
 * get_audit_log's `<limit>` (default 50, maximum 250) and `<offset>` (seed 000, Read tools): their
 * names are not shown, so they are found by what they do, through the tool server — the limit as the
 * integer parameter the tool's schema gives the default 50 or the maximum 250, the offset as the
 * optional integer that shifts the entries by one when it goes from 0 to 1.
 */
function auditParameterChecks(): Check[] {
  const integers = (tool: Listed[number]) =>
    Object.entries(
      (tool.inputSchema.properties ?? {}) as Record<
        string,
        { type?: unknown; default?: unknown; maximum?: unknown }
      >,
    ).filter(([, p]) => p.type === 'integer');
  const auditTool = async (ctx: Context) => {
    const key = ctx.keyFor('listAuditLog');
    if (!key)
      throw new Skipped('no key given is offered get_audit_log (--mcp-key of a user with audit_view)');
    const tool = (await listings(ctx))
      .find((l) => l.key === key)
      ?.tools.find((t) => t.name === 'get_audit_log');
    if (!tool)
      throw new Skipped('the tool server does not list get_audit_log for the key that is offered it');
    return { key, tool };
  };
  const entriesOf = (r: Called) => {
    const arrays = Object.values((r.structuredContent ?? {}) as Record<string, unknown>).filter(
      Array.isArray,
    );
    if (arrays.length !== 1)
      throw new Incomplete('get_audit_log answers no structuredContent with one list of entries');
    return arrays[0] as unknown[];
  };
  return [
    {
      id: 'mcp.tools.audit-log.limit',
      area,
      level: 'MUST',
      rules: ['000/limits.audit', '000/audit.limit-default'],
      title:
        "get_audit_log's limit parameter defaults to 50 and stops at 250: the tool's schema says so, and a limit of 251 is refused",
      needs,
      run: async (ctx) => {
        const { key, tool } = await auditTool(ctx);
        const limit = integers(tool).find(([, p]) => p.default === 50 || p.maximum === 250);
        if (!limit)
          return fail(
            `get_audit_log's schema has no integer parameter with the default 50 or the maximum 250 (it has ${
              integers(tool)
                .map(([n]) => n)
                .join(', ') || 'none'
            })`,
          );
        const [name, schema] = limit;
        if (schema.default !== 50 || schema.maximum !== 250)
          return fail(
            `get_audit_log's ${name} has default ${String(schema.default)} and maximum ${String(schema.maximum)}, not 50 and 250`,
          );
        const over = await withClient(ctx, key, (c) => callOrError(c, 'get_audit_log', { [name]: 251 }));
        if (!refused(over) && entriesOf(over as Called).length > 250)
          return fail(`get_audit_log with ${name} 251 answered ${entriesOf(over as Called).length} entries`);
        return pass();
      },
    },
    {
      id: 'mcp.tools.audit-log.offset',
      area,
      level: 'MUST',
      rules: ['000/audit.offset'],
      title:
        'get_audit_log takes an optional offset: one of its optional integer parameters shifts the entries by one when it goes from 0 to 1',
      needs,
      run: async (ctx) => {
        const { key, tool } = await auditTool(ctx);
        const required = new Set((tool.inputSchema.required ?? []) as string[]);
        const candidates = integers(tool).filter(
          ([n, p]) => !required.has(n) && p.default !== 50 && p.maximum !== 250,
        );
        const limit = integers(tool).find(([, p]) => p.default === 50 || p.maximum === 250)?.[0];
        return withClient(ctx, key, async (client) => {
          const page = async (args: Record<string, unknown>) => {
            const r = await callOrError(client, 'get_audit_log', {
              ...(limit ? { [limit]: 3 } : {}),
              ...args,
            });
            return refused(r) ? undefined : entriesOf(r as Called).map((x) => JSON.stringify(x));
          };
          const first = await page({});
          if (!first || first.length < 2)
            throw new Incomplete('the audit log holds fewer than two entries: run with --allow-writes');
          for (const [name] of candidates) {
            const at0 = await page({ [name]: 0 });
            const at1 = await page({ [name]: 1 });
            if (at0 && at1 && at0.length >= 2 && at1[0] === at0[1]) return pass();
          }
          return fail(
            `none of get_audit_log's optional integer parameters (${candidates.map(([n]) => n).join(', ') || 'none'}) pages the entries`,
          );
        });
      },
    },
  ];
}
