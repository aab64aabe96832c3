// What the MCP tool server does on the backend for a call (seed 000, What the service does 2, Read
// tools, Write tools, AI tools): it makes bulk_assign's one POST per course, calls the backend as the
// key's owner (each role key's tools/list, refusals and list_my_assignments are that owner's),
// passes get_audit_log's limit and offset, and uploads the file at the path upload_source_material
// is given. Needs --mcp-url; the writes need --allow-writes, the role keys --role-key, the upload
// --upload-dir.
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type Context, evidenceOf, fail, type KeyInfo, pass } from '../../context.ts';
import { minimalPdf } from '../../fixtures.ts';
import { Incomplete, Skipped } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { assignmentsOf } from '../common/discover.ts';
import { groupWithMember } from '../common/fixtures.ts';
import { readAssumed } from '../common/judge.ts';
import { ROLES, requireWriteTools, who } from '../common/keys.ts';
import {
  type Called,
  callOrError,
  type Listed,
  refusalOf,
  refused,
  textOf,
  withClient,
} from '../common/mcp-client.ts';
import { TOOLS } from '../common/tools.ts';
import { harmlessArguments } from './calls.ts';
import { area, listings, needs } from './listing.ts';

/** The course ids of a list_my_assignments answer (the kit's names: `assignments[].courseId`). */
const courseIdsOf = (body: unknown) => {
  const rows = (body as { assignments?: { courseId?: unknown }[] } | undefined)?.assignments;
  return Array.isArray(rows)
    ? [...new Set(rows.map((r) => Number(r.courseId)))].sort((a, b) => a - b).join()
    : undefined;
};

export const mcpBackendChecks: Check[] = [
  {
    id: 'mcp.tools.bulk-assign.every-course',
    area,
    level: 'MUST',
    rules: ['000/bulk-assign.every-course', '000/bulk-assign'],
    title: "bulk_assign of two courses to a group assigns both: the group's assignments list each",
    needs: { mcpUrl: true, mcpScope: 'write', writes: true, apiKey: true },
    run: async (ctx) => {
      requireWriteTools(ctx, 'bulk_assign');
      const key = ctx.key('write') as KeyInfo;
      const list = await ctx.v1.call('listCourses', { headers: ctx.v1Headers() });
      const courseIds = ((list.body as { courses?: { id: number }[] })?.courses ?? [])
        .slice(0, 2)
        .map((c) => c.id);
      if (courseIds.length < 2) throw new Incomplete('the deployment has fewer than two courses');
      const group = await groupWithMember(ctx, 'bulk');
      const result = await withClient(ctx, key.key, (c) =>
        callOrError(c, 'bulk_assign', { groupId: group.id, courseIds }),
      );
      if (refused(result)) return fail(`bulk_assign was refused: ${refusalOf(result)}`);
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
    needs: { mcpUrl: true, mcpScope: 'read', roles: [...ROLES], eachRole: true },
    run: async (ctx) => {
      const problems: string[] = [];
      for (const role of ROLES.filter((r) => ctx.roleKey(r))) {
        const key = ctx.roleKey(role) as KeyInfo;
        const own = await ctx.v2.call('listMyAssignments', { headers: { 'x-mcp-key': key.key } });
        const expected = readAssumed(own, "the owner's assigned courses", courseIdsOf);
        await withClient(ctx, key.key, async (client) => {
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
            problems.push(`${who(key)}: list_my_assignments was refused: ${refusalOf(mine)}`);
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
      const result = await withClient(ctx, key.key, (c) =>
        callOrError(c, 'upload_source_material', { filePath: path }),
      );
      if (refused(result)) return fail(`upload_source_material of ${path} was refused: ${refusalOf(result)}`);
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
        const over = await withClient(ctx, key.key, (c) => callOrError(c, 'get_audit_log', { [name]: 251 }));
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
        return withClient(ctx, key.key, async (client) => {
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
