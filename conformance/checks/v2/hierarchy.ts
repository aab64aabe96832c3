// The role hierarchy (seed 000, Permission identifiers: "role hierarchy (the target user must be
// below the caller's role)"): the manager key bans, unbans and changes the e-mail of a learner, each
// read back with get_user; on a user of the same role (a manager) or a higher one (an admin) each is
// refused with 403 and the user stays as they were. Needs --role-key manager=KEY and --allow-writes;
// the targets are users the run makes through v1 with those role aliases.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { userStatus } from '../common/discover.ts';
import { userInV2 } from '../common/fixtures.ts';
import { judge, mustPass, readAssumed } from '../common/judge.ts';
import { headersOf, mustOffer, roleKey } from '../common/keys.ts';

const area = 'v2.permission';

/** A user's status and e-mail through get_user with the admin's key (names the kit assumed). */
async function detailOf(ctx: Context, userId: number) {
  const { e, status } = await userStatus(ctx, userId);
  return { e, status, email: readAssumed(e, "the user's e-mail", (b: { email?: string }) => b.email) };
}

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
      const user = await userInV2(ctx, `${target}2`, target);
      const before = await detailOf(ctx, user.id);
      const ban = await ctx.v2.call('banUser', { headers: headersOf(manager), body: { userId: user.id } });
      if (ban.status !== 403)
        return fail(
          `the manager key banning ${a} answered ${ban.status}`,
          evidenceOf(ban, `403: the ${target} is not below the manager`),
        );
      mustPass(judge(ctx.v2, 'banUser', ban, [403]));
      const address = `${ctx.runId}-${target}2-new@example.invalid`;
      const change = await ctx.v2.call('changeUserEmail', {
        params: { userId: user.id },
        headers: headersOf(manager),
        body: { email: address },
      });
      if (change.status !== 403)
        return fail(
          `the manager key changing ${a}'s e-mail answered ${change.status}`,
          evidenceOf(change, `403: the ${target} is not below the manager`),
        );
      mustPass(judge(ctx.v2, 'changeUserEmail', change, [403]));
      const after = await detailOf(ctx, user.id);
      if (after.status !== before.status || after.email !== before.email)
        return fail(
          `after the refusals the ${target} is ${after.status} with ${after.email}, was ${before.status} with ${before.email}`,
          evidenceOf(after.e, 'the user unchanged'),
        );
      // Unbanning: the user banned through v1, then the manager tries to lift it.
      const block = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: user.apiId } });
      if (block.status >= 300)
        throw new Incomplete(
          `the ${target} could not be banned through v1 (${block.status}) to try unbanning`,
        );
      const blocked = await detailOf(ctx, user.id);
      const unban = await ctx.v2.call('unbanUser', {
        params: { userId: user.id },
        headers: headersOf(manager),
      });
      if (unban.status !== 403)
        return fail(
          `the manager key unbanning ${a} who is banned answered ${unban.status}`,
          evidenceOf(unban, `403: the ${target} is not below the manager`),
        );
      mustPass(judge(ctx.v2, 'unbanUser', unban, [403]));
      const last = await detailOf(ctx, user.id);
      return last.status === blocked.status
        ? pass()
        : fail(
            `the ${target}'s status went from ${blocked.status} to ${last.status} after a refused unban`,
            evidenceOf(last.e, `status ${blocked.status}`),
          );
    },
  };
}

export const v2HierarchyChecks: Check[] = [
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
      const user = await userInV2(ctx, 'below');
      const before = await detailOf(ctx, user.id);
      const ban = await ctx.v2.call('banUser', { headers: headersOf(manager), body: { userId: user.id } });
      mustPass(judge(ctx.v2, 'banUser', ban, [200]));
      const afterBan = await detailOf(ctx, user.id);
      if (afterBan.status === before.status)
        return fail(
          `the learner is still ${afterBan.status} after the manager's ban`,
          evidenceOf(afterBan.e, 'banned'),
        );
      const unban = await ctx.v2.call('unbanUser', {
        params: { userId: user.id },
        headers: headersOf(manager),
      });
      mustPass(judge(ctx.v2, 'unbanUser', unban, [200]));
      const afterUnban = await detailOf(ctx, user.id);
      if (afterUnban.status !== before.status)
        return fail(
          `the learner is ${afterUnban.status} after the manager's unban, was ${before.status}`,
          evidenceOf(afterUnban.e, `status ${before.status}`),
        );
      const address = `${ctx.runId}-below-new@example.invalid`;
      const change = await ctx.v2.call('changeUserEmail', {
        params: { userId: user.id },
        headers: headersOf(manager),
        body: { email: address },
      });
      mustPass(judge(ctx.v2, 'changeUserEmail', change, [200]));
      const last = await detailOf(ctx, user.id);
      return last.email.toLowerCase() === address
        ? pass()
        : fail(
            `the learner's e-mail is ${last.email} after the manager changed it`,
            evidenceOf(last.e, address),
          );
    },
  },
  hierarchyRefused('manager'),
  hierarchyRefused('admin'),
];
