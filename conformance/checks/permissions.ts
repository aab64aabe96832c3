// Permissions and the role hierarchy, with keys of other roles (seed 000, "Permission identifiers
// used by tools"; What the service does 2-3; Authentication 2 and 5). The seed names each tool's
// permission but not which role holds which (the kit's roles are its own choice), so a role key is
// judged against what it is offered: a tool it is not offered, though its scope allows it, is refused
// with 403 by the tool's backend call; a read it is offered is served. Then the rules that need a
// target: the role hierarchy in both directions, chain ownership, `course_edit` on a specific course,
// and a banned owner's key. The suite needs `--role-key manager=KEY` (a user who may ban users, change
// their e-mail and assign courses), `--role-key author=KEY` (a user who may edit their own courses)
// and `--role-key learner=KEY`; without them these MUSTs do not run and the run is incomplete.
import { loadTools, type ToolDefinition } from '../../lib/tool-schemas.ts';
import { type Context, evidenceOf, fail, type KeyInfo, pass, toolsOf } from '../context.ts';
import type { Exchange } from '../http.ts';
import { Departure, Incomplete, Skipped } from '../outcomes.ts';
import type { Check, Verdict } from '../types.ts';
import { judge, keyHeaders, type Request, readAssumed, v2CourseId, v2GroupId, v2User } from './helpers.ts';
import { HARMLESS } from './probes.ts';
import { clonedCourse } from './v2-writes.ts';

const area = 'v2.permission';
const TOOLS = loadTools();
const tool = (name: string) => TOOLS.find((t) => t.name === name) as ToolDefinition;
const AI_TOOLS = TOOLS.filter((t) => t['x-licence'].mcpAiAccess).map((t) => t.name);
/** The roles a `--role-key` stands for. */
export const ROLES = ['manager', 'author', 'learner'] as const;

/** How a key is named in a reason: by its role, or by its last four characters. */
export const who = (key: KeyInfo) => (key.role ? `the ${key.role} key` : `key …${key.key.slice(-4)}`);
const as = (key: KeyInfo) => ({ 'x-mcp-key': key.key });
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

/** The accepted key of a role (the runner has checked it was given). */
const roleKey = (ctx: Context, role: (typeof ROLES)[number]) => ctx.roleKey(role) as KeyInfo;

/** The role key must be offered a tool for a rule beyond its permission to be judged with it. */
function mustOffer(key: KeyInfo, name: string, why: string): void {
  if (!key.tools.includes(name))
    throw new Incomplete(
      `${who(key)} is not offered ${name}, so ${why} cannot be judged with it: give as --role-key ${key.role} a key of a user who may use ${name}`,
    );
}

/** Answers an operation must not give: the check fails with its evidence. */
const unexpected = (e: Exchange, reason: string, expected: string) => fail(reason, evidenceOf(e, expected));

// --- Fixtures --------------------------------------------------------------------------------

/**
 * A user made for the run through v1 with a role alias (seed 001 does not list the roles; the suite
 * uses the role names of `--role-key`), found through v2 by e-mail, and banned afterwards.
 */
export const freshUser = (ctx: Context, tag: string, roleAlias?: string, groups?: number[]) =>
  ctx.once(`permissions.user.${tag}`, async () => {
    const alias = roleAlias ?? ctx.config.roleAlias ?? 'learner';
    const email = `${ctx.runId}-${tag}@example.invalid`;
    const created = await ctx.v1.call('createUser', {
      headers: ctx.v1Headers(),
      body: {
        name: `lmskit ${tag} ${ctx.runId}`,
        email,
        password: 'Conformance-123',
        roleAlias: alias,
        ...(groups ? { groups } : {}),
      },
    });
    const apiId = (created.body as { id?: string } | undefined)?.id;
    if (!apiId) {
      if (roleAlias && created.status >= 400 && created.status < 500)
        throw new Incomplete(
          `v1 did not create a user with role alias ${alias} (${created.status}): the suite needs one to act on`,
        );
      throw new Departure(`a user could not be created through v1`, evidenceOf(created, 'the user'));
    }
    ctx.cleanup(() => ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: apiId } }));
    return { apiId, email, id: (await v2User(ctx, email)).id };
  });

/** A group made for the run through v1, with one member (renamed and banned afterwards). */
export const freshGroup = (ctx: Context, tag: string) =>
  ctx.once(`permissions.group.${tag}`, async () => {
    const e = await ctx.v1.call('createGroup', {
      headers: ctx.v1Headers(),
      body: { name: `lmskit ${ctx.runId} ${tag}` },
    });
    const id = (e.body as { id?: number } | undefined)?.id;
    if (id === undefined)
      throw new Departure('a group could not be created through v1', evidenceOf(e, 'the group'));
    ctx.cleanup(() =>
      ctx.v1.call('updateGroup', {
        params: { groupId: id },
        headers: ctx.v1Headers(),
        body: { name: `lmskit removed ${ctx.runId} ${tag}` },
      }),
    );
    // A member, so that the group's assignments show whether they are read per group or per member.
    const member = await freshUser(ctx, `${tag}-member`, undefined, [id]);
    return { id, member };
  });

/** A user's detail through get_user with the admin's key: status and e-mail (names the kit assumed). */
async function detailOf(ctx: Context, userId: number) {
  const e = await ctx.v2.call('getUser', { params: { userId }, headers: keyHeaders(ctx, 'getUser') });
  const verdict = judge(ctx.v2, 'getUser', e, [200]);
  if (verdict.status !== 'pass') throw new Departure(verdict.reason ?? 'get_user failed', verdict.evidence);
  return {
    e,
    status: readAssumed(e, "the user's status", (b: { status?: string }) => b.status),
    email: readAssumed(e, "the user's e-mail", (b: { email?: string }) => b.email),
  };
}

/** The course ids and deadlines of a user's or a group's assignments (names the kit assumed). */
export async function assignmentsOf(ctx: Context, target: { userId: number } | { groupId: number }) {
  const e =
    'userId' in target
      ? await ctx.v2.call('listUserAssignments', {
          params: { userId: target.userId },
          headers: keyHeaders(ctx, 'listUserAssignments'),
        })
      : await ctx.v2.call('listGroupAssignments', {
          params: { groupId: target.groupId },
          headers: keyHeaders(ctx, 'listGroupAssignments'),
        });
  const operationId = 'userId' in target ? 'listUserAssignments' : 'listGroupAssignments';
  const verdict = judge(ctx.v2, operationId, e, [200]);
  if (verdict.status !== 'pass')
    throw new Departure(verdict.reason ?? 'list_assignments failed', verdict.evidence);
  const rows = readAssumed(
    e,
    'the assignments',
    (b: { assignments?: { courseId: number; deadlineAt?: number | null }[] }) => b.assignments,
  );
  return { e, rows, courses: [...new Set(rows.map((r) => r.courseId))].sort((a, b) => a - b) };
}

// --- Each tool's permission --------------------------------------------------------------------

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
export const permissionCheckId = (rule: string) =>
  `v2.permission.refused.${rule.replace(/^000\//, '').replace(/\.permission$/, '')}`;

/**
 * For every key (the admin's and the role keys) and every backend call of the tools: where the key's
 * scope allows the call and it is not offered any tool making it, the call is refused with 403 —
 * a read asked for real, a write with a request that names nothing that exists, so that nothing can
 * change even where the permission is ignored; where it is offered, a read is served.
 */
function permissionCheck(rule: string, tools: string[]): Check {
  const defs = tools.map(tool);
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
    needs: { roles: [...ROLES], mcpScope: 'read' },
    run: async (ctx) => {
      for (const key of ctx.allKeys()) {
        for (const operationId of operations) {
          const scope = ctx.v2.operation(operationId).node['x-scope'] as 'read' | 'write';
          if (!key.scopes[scope]) continue;
          const names = toolsOf(operationId);
          const offered = names.some((n) => key.tools.includes(n));
          if (offered && scope === 'write') continue;
          const read = READS[operationId];
          const request = read ? await read(ctx) : (HARMLESS.v2[operationId]?.(ctx) ?? {});
          const e = await ctx.v2.callRaw(operationId, { ...request, headers: as(key) });
          const what = `${describe(ctx, operationId)} (${names.join(', ')})`;
          if (offered) {
            if (e.status < 200 || e.status >= 300)
              return unexpected(
                e,
                `${who(key)} is offered ${names.join(', ')}, yet ${what} answered ${e.status}`,
                `2xx: a tool offered is callable (its owner has ${permission})`,
              );
            const verdict = judge(ctx.v2, operationId, e, [200]);
            if (verdict.status !== 'pass') return verdict;
            continue;
          }
          if (e.status !== 403)
            return unexpected(
              e,
              `${who(key)} is not offered ${names.join(', ')}, yet ${what} answered ${e.status}`,
              `403 {error, code}: a key whose owner lacks ${permission} is refused`,
            );
          const verdict = judge(ctx.v2, operationId, e, [403]);
          if (verdict.status !== 'pass') return verdict;
        }
      }
      return pass();
    },
  };
}

export const PERMISSION_CHECK_IDS = PERMISSION_RULES.map(([rule]) => permissionCheckId(rule));

// --- Role hierarchy ----------------------------------------------------------------------------

/**
 * The manager key acting on a user of the same or a higher role: ban_user, change_user_email and
 * (the target banned through v1 first) unban_user are each refused with 403, and the user stays as
 * they were (read back with get_user through the admin's key).
 */
function hierarchyRefused(target: 'manager' | 'admin'): Check {
  const rank = target === 'manager' ? 'the same role' : 'a higher role';
  const a = target === 'manager' ? 'a manager' : 'an admin';
  return {
    id: `v2.permission.hierarchy.${target === 'manager' ? 'same-rank' : 'above'}`,
    area,
    level: 'MUST',
    rules: ['000/permission.role-hierarchy', '000/errors.shape'],
    title: `a manager banning, unbanning or changing the e-mail of a user of ${rank} (${target}) is refused with 403 and the user is unchanged`,
    needs: { roles: ['manager'], mcpScope: 'read', writes: true, apiKey: true },
    run: async (ctx) => {
      const manager = roleKey(ctx, 'manager');
      for (const name of ['ban_user', 'unban_user', 'change_user_email'])
        mustOffer(manager, name, 'the role hierarchy');
      const user = await freshUser(ctx, `${target}2`, target);
      const before = await detailOf(ctx, user.id);
      const ban = await ctx.v2.call('banUser', { headers: as(manager), body: { userId: user.id } });
      if (ban.status !== 403)
        return unexpected(
          ban,
          `the manager key banning ${a} answered ${ban.status}`,
          `403: the ${target} is not below the manager`,
        );
      const banned = judge(ctx.v2, 'banUser', ban, [403]);
      if (banned.status !== 'pass') return banned;
      const address = `${ctx.runId}-${target}2-new@example.invalid`;
      const change = await ctx.v2.call('changeUserEmail', {
        params: { userId: user.id },
        headers: as(manager),
        body: { email: address },
      });
      if (change.status !== 403)
        return unexpected(
          change,
          `the manager key changing ${a}'s e-mail answered ${change.status}`,
          `403: the ${target} is not below the manager`,
        );
      const changed = judge(ctx.v2, 'changeUserEmail', change, [403]);
      if (changed.status !== 'pass') return changed;
      const after = await detailOf(ctx, user.id);
      if (after.status !== before.status || after.email !== before.email)
        return unexpected(
          after.e,
          `after the refusals the ${target} is ${after.status} with ${after.email}, was ${before.status} with ${before.email}`,
          'the user unchanged',
        );
      // Unbanning: the user banned through v1, then the manager tries to lift it.
      const block = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: user.apiId } });
      if (block.status >= 300)
        throw new Incomplete(
          `the ${target} could not be banned through v1 (${block.status}) to try unbanning`,
        );
      const blocked = await detailOf(ctx, user.id);
      const unban = await ctx.v2.call('unbanUser', { params: { userId: user.id }, headers: as(manager) });
      if (unban.status !== 403)
        return unexpected(
          unban,
          `the manager key unbanning ${a} who is banned answered ${unban.status}`,
          `403: the ${target} is not below the manager`,
        );
      const unbanned = judge(ctx.v2, 'unbanUser', unban, [403]);
      if (unbanned.status !== 'pass') return unbanned;
      const last = await detailOf(ctx, user.id);
      return last.status === blocked.status
        ? pass()
        : unexpected(
            last.e,
            `the ${target}'s status went from ${blocked.status} to ${last.status} after a refused unban`,
            `status ${blocked.status}`,
          );
    },
  };
}

// --- course_edit on a specific course ------------------------------------------------------------

/** The structure of a course through get_course with the admin's key (its name the kit's). */
async function structureOf(ctx: Context, courseId: number) {
  const e = await ctx.v2.call('getCourse', { params: { courseId }, headers: keyHeaders(ctx, 'getCourse') });
  const verdict = judge(ctx.v2, 'getCourse', e, [200]);
  if (verdict.status !== 'pass') throw new Departure(verdict.reason ?? 'get_course failed', verdict.evidence);
  const elements = readAssumed(
    e,
    "the course's elements",
    (b: { structure?: { elements?: { id: number; type: string; questionType?: string }[] } }) =>
      b.structure?.elements,
  );
  return { e, elements, text: JSON.stringify((e.body as { structure?: unknown }).structure) };
}

/**
 * The author key acting on a course it neither owns nor shares — the copy the admin's key made for
 * the run — is refused with 403, and the course stays as it was.
 */
function courseEditRefused(
  name: string,
  rule: string,
  operationId: string,
  request: (courseId: number, elements: { id: number; type: string; questionType?: string }[]) => Request,
): Check {
  return {
    id: `v2.permission.course-edit.${name.replace(/_course$/, '').replace(/_/g, '-')}`,
    area,
    level: 'MUST',
    rules: [rule, '000/permission.refused'],
    title: `the author calling ${name} on a course it neither owns nor shares (the admin's copy) is refused with 403 and the course is unchanged`,
    needs: { roles: ['author'], mcpScope: 'write', writes: true },
    run: async (ctx) => {
      const author = roleKey(ctx, 'author');
      mustOffer(author, name, '`course_edit` on a specific course');
      const { id: courseId } = await clonedCourse(ctx);
      const before = await structureOf(ctx, courseId);
      const e = await ctx.v2.callRaw(operationId, {
        ...request(courseId, before.elements),
        headers: as(author),
      });
      if (e.status !== 403)
        return unexpected(
          e,
          `${name} by the author on the admin's course ${courseId} answered ${e.status}`,
          '403: course_edit on that course (owning, sharing or administering it) is missing',
        );
      const verdict = judge(ctx.v2, operationId, e, [403]);
      if (verdict.status !== 'pass') return verdict;
      const after = await structureOf(ctx, courseId);
      return after.text === before.text
        ? pass()
        : unexpected(
            after.e,
            `course ${courseId} changed after a refused ${name}`,
            'the structure unchanged',
          );
    },
  };
}

const elementOf = (
  elements: { id: number; type: string; questionType?: string }[],
  type: 'question' | 'lesson',
) => {
  const found = elements.find((x) => x.type === type && (type === 'lesson' || x.questionType === 'single'));
  if (!found) throw new Incomplete(`the admin's course copy has no ${type} to regenerate`);
  return found.id;
};

// --- The banned owner ---------------------------------------------------------------------------

/** Seed 000, Authentication 5: 401; the body is none (the text) or `{error, code: UNAUTHORIZED}`. */
function unauthorized(ctx: Context, operationId: string, e: Exchange): Verdict {
  const want = `401 ${describe(ctx, operationId)}, no body or {error, code: "UNAUTHORIZED"}`;
  if (e.status !== 401) return fail(`answered ${e.status}`, evidenceOf(e, want));
  const b = e.body as { error?: unknown; code?: unknown } | undefined;
  if (e.text && !(typeof b?.error === 'string' && b.code === 'UNAUTHORIZED'))
    return fail(`the 401 body is ${e.text.slice(0, 100)}`, evidenceOf(e, want));
  ctx.v2.cover(operationId, 401);
  return pass();
}

export const permissionChecks: Check[] = [
  {
    id: 'v2.permission.role-keys.owners',
    area,
    level: 'MUST',
    rules: ['000/auth.owner-permissions', '000/capabilities.user'],
    title:
      "each role key acts as its own user: the capabilities name an owner of its own (not the admin's keys' owner, not another role key's), and get_user shows that owner with the role",
    needs: { roles: [...ROLES], mcpScope: 'read' },
    run: async (ctx) => {
      const seen = new Map<number, string>(ctx.keys.map((k) => [k.user.id, `the owner of ${who(k)}`]));
      for (const role of ROLES) {
        const key = roleKey(ctx, role);
        const e = await ctx.v2.call('getCapabilities', { headers: as(key) });
        const verdict = judge(ctx.v2, 'getCapabilities', e, [200]);
        if (verdict.status !== 'pass') return verdict;
        const owner = (e.body as { user?: { id?: number } }).user?.id as number;
        const other = seen.get(owner);
        if (other)
          return unexpected(
            e,
            `the ${role} key acts as user ${owner}, ${other}: it does not act as a ${role} of its own`,
            `a user of its own, the ${role} the key belongs to`,
          );
        seen.set(owner, `the owner of the ${role} key`);
        const detail = await ctx.v2.call('getUser', {
          params: { userId: owner },
          headers: keyHeaders(ctx, 'getUser'),
        });
        const read = judge(ctx.v2, 'getUser', detail, [200]);
        if (read.status !== 'pass') return read;
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
    needs: { roles: [...ROLES], mcpScope: 'read' },
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
    needs: { roles: [...ROLES], mcpScope: 'read' },
    run: async (ctx) => {
      for (const key of ctx.allKeys()) {
        if (!key.tools.includes('list_my_assignments'))
          return fail(`${who(key)} is not offered list_my_assignments (any role may use it)`);
        const e = await ctx.v2.call('listMyAssignments', { headers: as(key) });
        if (e.status < 200 || e.status >= 300)
          return unexpected(e, `${who(key)}: GET /courses/assigned/me answered ${e.status}`, '2xx');
        const verdict = judge(ctx.v2, 'listMyAssignments', e, [200]);
        if (verdict.status !== 'pass') return verdict;
      }
      return pass();
    },
  },
  ...PERMISSION_RULES.map(([rule, tools]) => permissionCheck(rule, tools)),
  {
    id: 'v2.permission.hierarchy.below',
    area,
    level: 'MUST',
    rules: [
      '000/permission.role-hierarchy',
      '000/auth.owner-permissions',
      '000/ban-user',
      '000/unban-user',
      '000/change-email',
    ],
    title:
      "a manager bans, unbans and changes the e-mail of a learner (below the manager's role): each is done, read back with get_user",
    needs: { roles: ['manager'], mcpScope: 'read', writes: true, apiKey: true },
    run: async (ctx) => {
      const manager = roleKey(ctx, 'manager');
      for (const name of ['ban_user', 'unban_user', 'change_user_email'])
        mustOffer(manager, name, 'the role hierarchy');
      const user = await freshUser(ctx, 'below');
      const before = await detailOf(ctx, user.id);
      const ban = await ctx.v2.call('banUser', { headers: as(manager), body: { userId: user.id } });
      const banned = judge(ctx.v2, 'banUser', ban, [200]);
      if (banned.status !== 'pass') return banned;
      const afterBan = await detailOf(ctx, user.id);
      if (afterBan.status === before.status)
        return unexpected(
          afterBan.e,
          `the learner is still ${afterBan.status} after the manager's ban`,
          'banned',
        );
      const unban = await ctx.v2.call('unbanUser', { params: { userId: user.id }, headers: as(manager) });
      const unbanned = judge(ctx.v2, 'unbanUser', unban, [200]);
      if (unbanned.status !== 'pass') return unbanned;
      const afterUnban = await detailOf(ctx, user.id);
      if (afterUnban.status !== before.status)
        return unexpected(
          afterUnban.e,
          `the learner is ${afterUnban.status} after the manager's unban, was ${before.status}`,
          `status ${before.status}`,
        );
      const address = `${ctx.runId}-below-new@example.invalid`;
      const change = await ctx.v2.call('changeUserEmail', {
        params: { userId: user.id },
        headers: as(manager),
        body: { email: address },
      });
      const changed = judge(ctx.v2, 'changeUserEmail', change, [200]);
      if (changed.status !== 'pass') return changed;
      const last = await detailOf(ctx, user.id);
      return last.email.toLowerCase() === address
        ? pass()
        : unexpected(last.e, `the learner's e-mail is ${last.email} after the manager changed it`, address);
    },
  },
  hierarchyRefused('manager'),
  hierarchyRefused('admin'),
  {
    id: 'v2.chains.assign',
    area: 'v2.chains',
    level: 'MUST',
    rules: ['000/assign-chain', '000/assign-chain.deadline'],
    title:
      "assigning the chain (--chain) to a user and a group with a deadline gives both the chain's courses, each with that deadline",
    needs: { config: ['chainId'], mcpScope: 'write', writes: true, apiKey: true },
    run: async (ctx) => {
      const writer = ctx.key('write') as KeyInfo;
      if (!writer.tools.includes('assign_chain'))
        throw new Skipped('the write key given is not offered assign_chain (--mcp-key)');
      const chainId = Number(ctx.config.chainId);
      const user = await freshUser(ctx, 'chain-user');
      const group = await freshGroup(ctx, 'chain');
      // A whole day, 60 days ahead of the deployment's clock as the suite sees it.
      const deadlineAt = Math.floor(Date.now() / 86_400_000 + 60) * 86_400;
      const e = await ctx.v2.call('assignCourseChain', {
        params: { chainId },
        headers: as(writer),
        body: { users: [user.id], groups: [group.id], deadlineAt },
      });
      const verdict = judge(ctx.v2, 'assignCourseChain', e, [200]);
      if (verdict.status !== 'pass') return verdict;
      const mine = await assignmentsOf(ctx, { userId: user.id });
      const theirs = await assignmentsOf(ctx, { groupId: group.id });
      if (!mine.courses.length)
        return unexpected(
          mine.e,
          `the user has no assignment after assign_chain of chain ${chainId}`,
          'the chain',
        );
      if (mine.courses.join() !== theirs.courses.join())
        return unexpected(
          theirs.e,
          `the user was given courses ${mine.courses.join(', ')}, the group ${theirs.courses.join(', ') || 'none'}`,
          `the chain's courses ${mine.courses.join(', ')} for both`,
        );
      const answered = (e.body as { courseIds?: unknown }).courseIds;
      if (Array.isArray(answered) && [...answered].sort((a, b) => a - b).join() !== mine.courses.join())
        return unexpected(
          mine.e,
          `the answer names the chain's courses ${answered.join(', ')}; the user was given ${mine.courses.join(', ')}`,
          `courses ${answered.join(', ')}`,
        );
      const late = [...mine.rows, ...theirs.rows].filter((r) => r.deadlineAt !== deadlineAt);
      return late.length
        ? unexpected(
            late.length === theirs.rows.length ? theirs.e : mine.e,
            `course ${late[0]?.courseId} has the deadline ${late[0]?.deadlineAt}, the chain was given ${deadlineAt}`,
            `deadlineAt ${deadlineAt} on every course of the chain`,
          )
        : pass();
    },
  },
  {
    id: 'v2.chains.assign.not-owner',
    area: 'v2.chains',
    level: 'MUST',
    rules: ['000/assign-chain.owner', '000/permission.refused'],
    title:
      "a manager (offered assign_chain) assigning a chain it does not own (--chain, the admin's) is refused with 403 and assigns nothing",
    needs: { roles: ['manager'], config: ['chainId'], mcpScope: 'read', writes: true, apiKey: true },
    run: async (ctx) => {
      const manager = roleKey(ctx, 'manager');
      mustOffer(manager, 'assign_chain', 'chain ownership');
      if (ctx.keys.some((k) => k.user.id === manager.user.id))
        throw new Incomplete('the manager key has the same owner as --mcp-key, who owns the chain (--chain)');
      const chainId = Number(ctx.config.chainId);
      const user = await freshUser(ctx, 'chain-target');
      const before = await assignmentsOf(ctx, { userId: user.id });
      const e = await ctx.v2.call('assignCourseChain', {
        params: { chainId },
        headers: as(manager),
        body: { users: [user.id] },
      });
      if (e.status !== 403)
        return unexpected(
          e,
          `the manager key assigning chain ${chainId} of another user answered ${e.status}`,
          '403: only the chain’s owner may assign it',
        );
      const verdict = judge(ctx.v2, 'assignCourseChain', e, [403]);
      if (verdict.status !== 'pass') return verdict;
      const after = await assignmentsOf(ctx, { userId: user.id });
      return after.courses.join() === before.courses.join()
        ? pass()
        : unexpected(
            after.e,
            `the user was given courses ${after.courses.join(', ')} by a refused assign_chain`,
            `courses ${before.courses.join(', ') || 'none'}`,
          );
    },
  },
  courseEditRefused('refine_course', '000/refine.permission', 'refineCourse', (courseId) => ({
    params: { courseId },
    body: { feedback: 'Add an example about sailing knots' },
  })),
  courseEditRefused(
    'regenerate_question',
    '000/regenerate-question.permission',
    'regenerateQuestion',
    (_c, elements) => ({ params: { questionId: elementOf(elements, 'question') }, body: {} }),
  ),
  courseEditRefused(
    'regenerate_lesson',
    '000/regenerate-lesson.permission',
    'regenerateLesson',
    (_c, elements) => ({ params: { lessonId: elementOf(elements, 'lesson') }, body: {} }),
  ),
  courseEditRefused('clone_course', '000/clone-course.permission', 'cloneCourse', (courseId) => ({
    body: { courseId },
  })),
  // Last: it bans the learner key's owner for a moment, and nothing after it needs that key.
  {
    id: 'v2.auth.banned-owner',
    area: 'v2.auth',
    level: 'MUST',
    rules: ['000/auth.banned-owner', '001/users.ban-login', '000/errors.unauthorized'],
    title:
      "the learner key's owner banned (ban_user with the admin's key), the learner key gets 401; unbanned, it is accepted again",
    needs: { roles: ['learner'], mcpScope: 'write', writes: true },
    run: async (ctx) => {
      const writer = ctx.key('write') as KeyInfo;
      for (const name of ['ban_user', 'unban_user'])
        if (!writer.tools.includes(name))
          throw new Skipped(`the write key given is not offered ${name} (--mcp-key)`);
      const learner = roleKey(ctx, 'learner');
      const userId = learner.user.id;
      // The budget first: no ban is made when the 401 could not be asked for.
      ctx.spendFailedLogin();
      const ban = await ctx.v2.call('banUser', { headers: as(writer), body: { userId } });
      const banned = judge(ctx.v2, 'banUser', ban, [200]);
      if (banned.status !== 'pass') return banned;
      let refused: Verdict;
      try {
        const e = await ctx.v2.call('getCapabilities', { headers: as(learner) });
        refused = unauthorized(ctx, 'getCapabilities', e);
      } finally {
        const unban = await ctx.v2.call('unbanUser', { params: { userId }, headers: as(writer) });
        if (unban.status >= 300)
          ctx.cleanup(() => ctx.v2.call('unbanUser', { params: { userId }, headers: as(writer) }));
      }
      if (refused.status !== 'pass')
        return { ...refused, reason: `with its owner banned, ${refused.reason}` };
      const again = await ctx.v2.call('getCapabilities', { headers: as(learner) });
      if (again.status !== 200)
        return unexpected(again, `unbanned, the learner key is still refused (${again.status})`, '200');
      return judge(ctx.v2, 'getCapabilities', again, [200]);
    },
  },
];
