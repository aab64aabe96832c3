// v1 groups (seed 001, "Endpoints > Groups", "Resources > Group"): a created group starts empty, a
// PATCH renames it and detaches it (parentId null) and needs a name; its attributes are set, answered
// and read back keyed by the attribute's name, and a value that does not fit the attribute's type is
// refused; its statistics list a new member without activity and without results. Runs with
// --allow-writes; the groups are renamed and detached after the run.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { list, obj, show } from '../common/body.ts';
import {
  attributeOf,
  createdOrDeparture,
  createGroup,
  createUser,
  emailFor,
  fixtureGroup,
  roleOf,
} from '../common/fixtures.ts';
import { contractCheck, judge, mustPass } from '../common/judge.ts';

const needs = { apiKey: true, writes: true };

/** A group's statistics (GET /groups/{groupId}/statistics), judged: the read-back of a group. */
export const groupStatistics = async (ctx: Context, groupId: number) => {
  const e = await ctx.v1.call('getGroupStatistics', { params: { groupId }, headers: ctx.v1Headers() });
  mustPass(judge(ctx.v1, 'getGroupStatistics', e, [200]));
  return { e, body: obj(e.body) };
};

/**
 * A 400 to a group's attribute set that names only attributes the run did not give: the deployment
 * has a required group attribute of its own, which the run cannot fill (the set replaces the values).
 */
function refusedForOthers(e: Exchange, ours: string[]): void {
  const keys = Object.keys(obj(obj(e.body).errors));
  if (e.status === 400 && keys.length && keys.every((k) => !ours.some((n) => k === `attributes.${n}`)))
    throw new Incomplete(
      `the group's attribute set was refused for attributes the run did not make (${keys.join(', ')}): the deployment seems to require group attributes of its own`,
    );
}

export const v1GroupChecks: Check[] = [
  {
    id: 'v1.groups.create-and-detach',
    area: 'v1.groups',
    level: 'MUST',
    rules: [
      '001/groups.create',
      '001/groups.parent',
      '001/groups.update',
      '001/groups.detach',
      '001/groups.statistics',
    ],
    title: 'a created group starts empty; PATCH renames it and parentId null detaches it',
    needs,
    run: async (ctx) => {
      const parent = await createGroup(ctx, 'parent');
      const child = await createGroup(ctx, 'child', { parentId: parent.id });
      mustPass(judge(ctx.v1, 'createGroup', child.e, [201]));
      const c = child.e.body as {
        usersCount?: number;
        coursesCount?: number;
        parentId?: number;
        image?: unknown;
      };
      if (c.usersCount !== 0 || c.coursesCount !== 0 || c.parentId !== parent.id || c.image !== null)
        return fail(
          'the new group is not {usersCount: 0, coursesCount: 0, image: null, parentId}',
          evidenceOf(child.e, `usersCount 0, coursesCount 0, image null, parentId ${parent.id}`),
        );
      const name = `lmskit ${ctx.runId} detached`;
      const detached = await ctx.v1.call('updateGroup', {
        params: { groupId: child.id },
        headers: ctx.v1Headers(),
        body: { name, parentId: null },
      });
      mustPass(judge(ctx.v1, 'updateGroup', detached, [200]));
      const d = detached.body as { parentId?: unknown; name?: string };
      if (d.parentId !== null || d.name !== name)
        return fail(
          'the group is not renamed and detached after PATCH',
          evidenceOf(detached, `name ${name}, parentId null`),
        );
      const stats = await groupStatistics(ctx, child.id);
      const group = obj(stats.body.group);
      return group.name === name && group.parentId === null
        ? pass()
        : fail(
            'the group statistics still show the old name or parent',
            evidenceOf(stats.e, `group.name ${name}, parentId null`),
          );
    },
  },
  contractCheck({
    id: 'v1.groups.name-required',
    area: 'v1.groups',
    level: 'MUST',
    rules: ['001/groups.validation', '001/errors.shape', '001/errors.validation'],
    title: 'a group without a name is refused with 400, errors keyed name',
    needs,
    api: 'v1',
    operationId: 'createGroup',
    expect: [400],
    request: async (ctx) => ({
      headers: ctx.v1Headers(),
      body: { description: `lmskit ${ctx.runId} nameless` },
    }),
    verify: (_ctx, e) =>
      (e.body as { errors?: Record<string, unknown> })?.errors?.name
        ? pass()
        : fail('no error keyed name', evidenceOf(e, 'errors.name')),
  }),
  {
    id: 'v1.groups.statistics.contract',
    area: 'v1.groups',
    level: 'MUST',
    rules: ['001/groups.statistics', '001/conventions.json'],
    title: "a group's statistics answer {group, usersWithoutActivity, usersWithoutResults, leaders}",
    needs,
    run: async (ctx) => {
      const { id } = await fixtureGroup(ctx);
      return judge(
        ctx.v1,
        'getGroupStatistics',
        await ctx.v1.call('getGroupStatistics', { params: { groupId: id }, headers: ctx.v1Headers() }),
        [200],
      );
    },
  },
  {
    id: 'v1.groups.attributes-by-name',
    area: 'v1.groups',
    level: 'MUST',
    rules: ['001/groups.attributes-by-name', '001/groups.update'],
    title: "a group's attributes are set and answered keyed by the attribute's name, and read back so",
    needs,
    run: async (ctx) => {
      const attribute = await attributeOf(ctx, 'groups', 1);
      const group = await createGroup(ctx, 'attributed');
      const e = await ctx.v1.call('updateGroup', {
        params: { groupId: group.id },
        headers: ctx.v1Headers(),
        body: { name: group.name, attributes: { [attribute.name]: 'EMEA' } },
      });
      refusedForOthers(e, [attribute.name]);
      mustPass(judge(ctx.v1, 'updateGroup', e, [200]));
      const want = `attributes["${attribute.name}"] "EMEA"`;
      const answered = obj(obj(e.body).attributes)[attribute.name];
      if (answered !== 'EMEA')
        return fail(
          `the updated group's attributes["${attribute.name}"] is ${show(answered)}`,
          evidenceOf(e, want),
        );
      const stats = await groupStatistics(ctx, group.id);
      const stored = obj(obj(stats.body.group).attributes)[attribute.name];
      return stored === 'EMEA'
        ? pass()
        : fail(
            `the group reads back attributes["${attribute.name}"] ${show(stored)}`,
            evidenceOf(stats.e, want),
          );
    },
  },
  {
    id: 'v1.groups.update-name-required',
    area: 'v1.groups',
    level: 'MUST',
    rules: ['001/groups.update-name-required', '001/errors.shape'],
    title: 'a PATCH of a group without name is refused with 400, and the group keeps its name',
    needs,
    run: async (ctx) => {
      const group = await createGroup(ctx, 'unnamed patch');
      const e = await ctx.v1.callRaw('updateGroup', {
        params: { groupId: group.id },
        headers: ctx.v1Headers(),
        body: { description: 'lmskit: a PATCH without name' },
      });
      mustPass(judge(ctx.v1, 'updateGroup', e, [400]));
      const stats = await groupStatistics(ctx, group.id);
      return obj(stats.body.group).name === group.name
        ? pass()
        : fail('the refused PATCH changed the group', evidenceOf(stats.e, `name ${group.name}`));
    },
  },
  {
    id: 'v1.groups.attribute-validation',
    area: 'v1.groups',
    level: 'MUST',
    rules: ['001/groups.attribute-validation', '001/attributes.number-numeric', '001/errors.validation'],
    title: 'a group attribute value that does not fit its type is refused with 400, keyed attributes.<name>',
    needs,
    run: async (ctx) => {
      const attribute = await attributeOf(ctx, 'groups', 8);
      const group = await createGroup(ctx, 'invalid value');
      const e = await ctx.v1.call('updateGroup', {
        params: { groupId: group.id },
        headers: ctx.v1Headers(),
        body: { name: group.name, attributes: { [attribute.name]: 'many' } },
      });
      mustPass(judge(ctx.v1, 'updateGroup', e, [400]), `"many" for the number attribute ${attribute.name}`);
      const key = `attributes.${attribute.name}`;
      return obj(obj(e.body).errors)[key]
        ? pass()
        : fail(`the 400 has no error keyed ${key}`, evidenceOf(e, `errors["${key}"]`));
    },
  },
  {
    id: 'v1.groups.statistics.members',
    area: 'v1.groups',
    level: 'MUST',
    rules: ['001/groups.statistics-users', '001/groups.statistics', '001/users.create-groups'],
    title: "a group's new member is listed without activity and without results as {id, name, email, role}",
    needs,
    run: async (ctx) => {
      const group = await createGroup(ctx, 'statistics');
      const id = createdOrDeparture(ctx, await createUser(ctx, 'counted', { groups: [group.id] }));
      const stats = await groupStatistics(ctx, group.id);
      const want = { id, name: 'lmskit counted', email: emailFor(ctx, 'counted'), role: roleOf(ctx) };
      for (const key of ['usersWithoutActivity', 'usersWithoutResults']) {
        const member = list(stats.body[key]).find((u) => u.id === id);
        if (!member)
          return fail(`the new member ${id} is not in ${key}`, evidenceOf(stats.e, `${key} with ${id}`));
        if (member.name !== want.name || member.email !== want.email || obj(member.role).alias !== want.role)
          return fail(
            `${key} lists the member as ${JSON.stringify(member)}`,
            evidenceOf(stats.e, JSON.stringify(want)),
          );
      }
      return pass();
    },
  },
];
