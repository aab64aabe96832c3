// Each tool's permission, with keys of other roles (seed 000, "Permission identifiers used by tools";
// What the service does 2-3; Authentication 2). The seed names each tool's permission but not which
// role holds which (the kit's roles are its own choice), so a key is judged against what it is
// offered: a tool it is not offered, though its scope allows it, is refused with 403 by the tool's
// backend call; a read it is offered is served. Each role key acts as a user of its own, tools of
// one permission are offered together, and any role may list its own assignments. The suite needs
// `--role-key manager=KEY` (a user who may ban users, change their e-mail and assign courses),
// `--role-key author=KEY` (a user who may edit their own courses) and `--role-key learner=KEY`;
// without them these MUSTs do not run and the run is incomplete. The rules that need a target are in
// ./hierarchy.ts and ./ownership.ts.
import type { ToolDefinition } from '../../../lib/tool-schemas.ts';
import { type Context, evidenceOf, fail, pass, toolsOf } from '../../context.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { keyHeaders, v2CourseId, v2GroupId } from '../common/discover.ts';
import { judge, mustPass, type Request } from '../common/judge.ts';
import { headersOf, ROLES, roleKey, who } from '../common/keys.ts';
import { AI_TOOLS, TOOLS, toolNamed } from '../common/tools.ts';
import { harmless } from '../probes/harmless.ts';

const area = 'v2.permission';

/** An operation as the permission reasons name it: `GET /api/v2/users/{userId}`. */
const describe = (ctx: Context, operationId: string) => {
  const { method, path } = ctx.v2.operation(operationId);
  return `${method} /api/v2${path}`;
};

/** The owner of the admin's keys (`--mcp-key`): a user that surely exists, above every role key. */
const adminOwner = (ctx: Context) => {
  const owner = ctx.key('write')?.user.id ?? ctx.keys[0]?.user.id;
  if (owner === undefined) throw new Incomplete('no MCP key of --mcp-key was accepted');
  return owner;
};

/**
 * A real read for each read operation, of data that exists (not the key owner's own, which a
 * deployment may show its owner whatever their role): what a key offered the tool is served, and a
 * key not offered it is refused.
 */
const READS: Record<string, (ctx: Context) => Promise<Request>> = {
  searchUsers: async () => ({ query: { query: 'a' } }),
  getUser: async (ctx) => ({ params: { userId: adminOwner(ctx) } }),
  listUserCertificates: async (ctx) => ({ params: { userId: adminOwner(ctx) } }),
  searchCourses: async () => ({ query: { query: 'a' } }),
  getCourse: async (ctx) => ({ params: { courseId: await v2CourseId(ctx) } }),
  listUserAssignments: async (ctx) => ({ params: { userId: adminOwner(ctx) } }),
  listGroupAssignments: async (ctx) => ({ params: { groupId: await v2GroupId(ctx) } }),
  getCourseUserStatistics: async (ctx) => ({ params: { courseId: await v2CourseId(ctx) } }),
  getStatistics: async () => ({ params: { scope: 'overview' } }),
  getLeaderboard: async () => ({}),
  listAuditLog: async () => ({}),
  listMyAssignments: async () => ({}),
};

/** The per-tool permission rules of seed 000 and the tools each covers. */
const PERMISSION_RULES: [rule: string, tools: string[]][] = [
  ['000/find-user.permission', ['find_user']],
  ['000/get-user.permission', ['get_user']],
  ['000/certificates.permission', ['list_certificates']],
  ['000/find-course.permission', ['find_course']],
  ['000/get-course.permission', ['get_course']],
  ['000/list-assignments.permission', ['list_assignments']],
  ['000/compliance.permission', ['get_compliance_status']],
  ['000/statistics.permission', ['get_statistics']],
  ['000/leaderboard.permission', ['get_leaderboard']],
  ['000/audit.permission', ['get_audit_log']],
  ['000/assign-training.permission', ['assign_training']],
  ['000/bulk-assign.permission', ['bulk_assign']],
  ['000/assign-chain.permission', ['assign_chain']],
  ['000/ban-user.permission', ['ban_user']],
  ['000/unban-user.permission', ['unban_user']],
  ['000/change-email.permission', ['change_user_email']],
  ['000/clone-course.permission', ['clone_course']],
  ['000/ai.permission', ['upload_source_material', 'create_course_from_prompt', 'create_course_from_files']],
  ['000/refine.permission', ['refine_course']],
  ['000/regenerate-question.permission', ['regenerate_question']],
  ['000/regenerate-lesson.permission', ['regenerate_lesson']],
];

/** The id of the check of a per-tool permission rule: `000/find-user.permission` → `…refused.find-user`. */
const permissionCheckId = (rule: string) =>
  `v2.permission.refused.${rule.replace(/^000\//, '').replace(/\.permission$/, '')}`;

/**
 * For every key (the admin's and the role keys) and every backend call of the tools: where the key's
 * scope allows the call and it is not offered any tool making it, the call is refused with 403 —
 * a read asked for real, a write with a request that names nothing that exists, so that nothing can
 * change even where the permission is ignored; where it is offered, a read is served.
 */
function permissionCheck(rule: string, tools: string[]): Check {
  const defs = tools.map(toolNamed);
  const permission = defs[0]?.['x-permission'];
  const operations = [...new Set(defs.flatMap((d) => d['x-backend'].map((b) => b.operationId)))];
  return {
    id: permissionCheckId(rule),
    area,
    level: 'MUST',
    rules: [
      rule,
      '000/permission.refused',
      '000/capabilities.filter-permission',
      '000/auth.owner-permissions',
    ],
    title: `a key not offered ${tools.join(', ')} (permission ${permission}) is refused with 403 by ${operations.join(', ')}; a key offered a read tool is served`,
    needs: { roles: [...ROLES], eachRole: true, mcpScope: 'read' },
    run: async (ctx) => {
      for (const key of ctx.allKeys()) {
        for (const operationId of operations) {
          const scope = ctx.v2.operation(operationId).node['x-scope'] as 'read' | 'write';
          if (!key.scopes[scope]) continue;
          const names = toolsOf(operationId);
          const offered = names.some((n) => key.tools.includes(n));
          if (offered && scope === 'write') continue;
          const read = READS[operationId];
          const request = read ? await read(ctx) : harmless('v2', operationId)(ctx);
          const e = await ctx.v2.callRaw(operationId, { ...request, headers: headersOf(key) });
          const what = `${describe(ctx, operationId)} (${names.join(', ')})`;
          if (offered) {
            if (e.status < 200 || e.status >= 300)
              return fail(
                `${who(key)} is offered ${names.join(', ')}, yet ${what} answered ${e.status}`,
                evidenceOf(e, `2xx: a tool offered is callable (its owner has ${permission})`),
              );
            mustPass(judge(ctx.v2, operationId, e, [200]));
            continue;
          }
          if (e.status !== 403)
            return fail(
              `${who(key)} is not offered ${names.join(', ')}, yet ${what} answered ${e.status}`,
              evidenceOf(e, `403 {error, code}: a key whose owner lacks ${permission} is refused`),
            );
          mustPass(judge(ctx.v2, operationId, e, [403]));
        }
      }
      return pass();
    },
  };
}

export const PERMISSION_CHECK_IDS = PERMISSION_RULES.map(([rule]) => permissionCheckId(rule));

export const v2PermissionChecks: Check[] = [
  {
    id: 'v2.permission.role-keys.owners',
    area,
    level: 'MUST',
    rules: ['000/auth.owner-permissions', '000/capabilities.user'],
    title:
      "each role key acts as its own user: the capabilities name an owner of its own (not the admin's keys' owner, not another role key's), and get_user shows that owner with the role",
    needs: { roles: [...ROLES], eachRole: true, mcpScope: 'read' },
    run: async (ctx) => {
      const seen = new Map<number, string>(ctx.keys.map((k) => [k.user.id, `the owner of ${who(k)}`]));
      for (const role of ROLES.filter((r) => ctx.roleKey(r))) {
        const key = roleKey(ctx, role);
        const e = await ctx.v2.call('getCapabilities', { headers: headersOf(key) });
        mustPass(judge(ctx.v2, 'getCapabilities', e, [200]));
        const owner = (e.body as { user?: { id?: number } }).user?.id as number;
        const other = seen.get(owner);
        if (other)
          return fail(
            `the ${role} key acts as user ${owner}, ${other}: it does not act as a ${role} of its own`,
            evidenceOf(e, `a user of its own, the ${role} the key belongs to`),
          );
        seen.set(owner, `the owner of the ${role} key`);
        const detail = await ctx.v2.call('getUser', {
          params: { userId: owner },
          headers: keyHeaders(ctx, 'getUser'),
        });
        mustPass(judge(ctx.v2, 'getUser', detail, [200]));
        if (!new RegExp(`\\b${role}\\b`, 'i').test(detail.text))
          throw new Incomplete(
            `get_user of the ${role} key's owner (user ${owner}) does not mention the role ${role}: give as --role-key ${role} a key of a ${role}`,
          );
      }
      return pass();
    },
  },
  {
    id: 'v2.capabilities.permission-groups',
    area: 'v2.capabilities',
    level: 'MUST',
    rules: ['000/capabilities.filter-permission'],
    title:
      "tools of one permission (seed 000's tables) are offered together or not at all, where the key's scope and licence allow them",
    needs: { roles: [...ROLES], eachRole: true, mcpScope: 'read' },
    run: async (ctx) => {
      const byPermission = new Map<string, ToolDefinition[]>();
      for (const t of TOOLS) {
        const p = t['x-permission'];
        if (p) byPermission.set(p, [...(byPermission.get(p) ?? []), t]);
      }
      const problems: string[] = [];
      for (const key of ctx.allKeys()) {
        // The AI switch is not in the capabilities: a key offered no AI tool is not judged on them.
        const ai = key.tools.some((t) => AI_TOOLS.includes(t));
        for (const [permission, tools] of byPermission) {
          const allowed = tools.filter(
            (t) => key.scopes[t['x-scope']] && (!t['x-licence'].mcpAiAccess || ai),
          );
          const offered = allowed.filter((t) => key.tools.includes(t.name)).map((t) => t.name);
          const withheld = allowed.filter((t) => !key.tools.includes(t.name)).map((t) => t.name);
          if (offered.length && withheld.length)
            problems.push(
              `${who(key)} is offered ${offered.join(', ')} but not ${withheld.join(', ')}, all of permission ${permission}`,
            );
        }
      }
      return problems.length ? fail(problems.join('; ')) : pass();
    },
  },
  {
    id: 'v2.permission.my-assignments.any-role',
    area,
    level: 'MUST',
    rules: ['000/list-my-assignments.any-role', '000/list-my-assignments'],
    title:
      "every key, each role key's too, is offered list_my_assignments and GET /courses/assigned/me serves it",
    needs: { roles: [...ROLES], eachRole: true, mcpScope: 'read' },
    run: async (ctx) => {
      for (const key of ctx.allKeys()) {
        if (!key.tools.includes('list_my_assignments'))
          return fail(`${who(key)} is not offered list_my_assignments (any role may use it)`);
        const e = await ctx.v2.call('listMyAssignments', { headers: headersOf(key) });
        if (e.status < 200 || e.status >= 300)
          return fail(`${who(key)}: GET /courses/assigned/me answered ${e.status}`, evidenceOf(e, '2xx'));
        mustPass(judge(ctx.v2, 'listMyAssignments', e, [200]));
      }
      return pass();
    },
  },
  ...PERMISSION_RULES.map(([rule, tools]) => permissionCheck(rule, tools)),
];
