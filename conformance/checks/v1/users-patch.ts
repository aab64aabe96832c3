// v1 users, changed (seed 001, "Endpoints > Users": PATCH /users/{userId}): a PATCH answers 200 and
// is kept; it needs an e-mail, a valid and unique one; the optional fields it leaves out stay as they
// were, and its attributes replace the whole set. v1 has no read of a user, so a change is read back
// through what it makes the deployment refuse (a taken e-mail) or answer (the ban answers the user).
// Runs with --allow-writes.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Check } from '../../types.ts';
import { type Obj, obj, show } from '../common/body.ts';
import {
  attributeOf,
  createdOrDeparture,
  createUser,
  definition,
  emailFor,
  firstOf,
  neutralise,
  roleOf,
  upsert,
  withUser,
} from '../common/fixtures.ts';
import { judge, mustPass } from '../common/judge.ts';
import { profiledUser } from './users-create.ts';

const needs = { apiKey: true, writes: true };

const patchUser = (ctx: Context, userId: string, body: Obj) =>
  ctx.v1.callRaw('updateUser', { params: { userId }, headers: ctx.v1Headers(), body });

/**
 * A user as banning them answers it (seed 001, POST /users/blocked answers the user, name and
 * API-management flag included): the only read of a user v1 has, so the user's last use in a check.
 */
async function readBackByBan(ctx: Context, id: string) {
  const banned = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
  mustPass(judge(ctx.v1, 'blockUser', banned, [200]));
  return { banned, user: obj(banned.body) };
}

export const v1UserPatchChecks: Check[] = [
  {
    id: 'v1.users.patch',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.patch', '001/users.patch-fields'],
    title: 'patching a user answers 200, and the new e-mail is then taken',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) => {
        const patched = await ctx.v1.call('updateUser', {
          params: { userId: id },
          headers: ctx.v1Headers(),
          body: { email: emailFor(ctx, 'patched'), occupation: 'Conformance' },
        });
        mustPass(judge(ctx.v1, 'updateUser', patched, [200]));
        // Read back through the e-mail rule: the new address now belongs to someone (seed 001, Users).
        const { e } = await createUser(ctx, 'patched', { name: 'lmskit after patch' });
        return e.status === 400
          ? pass()
          : fail(
              `after PATCH email ${emailFor(ctx, 'patched')}, creating another user with it answered ${e.status}: the change was not kept`,
              evidenceOf(e, '400: the e-mail is taken'),
            );
      }),
  },
  {
    id: 'v1.users.patch.invalid-email',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.patch-validation', '001/errors.shape'],
    title: 'patching a user with an invalid e-mail is refused with 400',
    needs,
    run: (ctx) =>
      withUser(ctx, async (id) =>
        judge(
          ctx.v1,
          'updateUser',
          await ctx.v1.call('updateUser', {
            params: { userId: id },
            headers: ctx.v1Headers(),
            body: { email: 'not an e-mail' },
          }),
          [400],
        ),
      ),
  },
  {
    id: 'v1.users.patch.email-required',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.patch-email-required', '001/errors.shape'],
    title: 'a PATCH of a user without email is refused with 400',
    needs,
    run: async (ctx) => {
      const id = createdOrDeparture(ctx, await createUser(ctx, 'patch-no-email'));
      return judge(ctx.v1, 'updateUser', await patchUser(ctx, id, { occupation: 'Conformance' }), [400]);
    },
  },
  {
    id: 'v1.users.patch.email-unique',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.patch-email-unique', '001/errors.shape'],
    title: "a PATCH of a user with another user's e-mail is refused with 400",
    needs,
    run: async (ctx) => {
      createdOrDeparture(ctx, await profiledUser(ctx), 'v1data.profiledUser');
      const id = createdOrDeparture(ctx, await createUser(ctx, 'patch-taker'));
      return judge(
        ctx.v1,
        'updateUser',
        await patchUser(ctx, id, { email: emailFor(ctx, 'profiled') }),
        [400],
      );
    },
  },
  {
    id: 'v1.users.patch.optional-kept',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.patch-optional', '001/users.patch'],
    title: 'a PATCH that leaves out the optional full name and API-management flag keeps them as they were',
    needs,
    run: async (ctx) => {
      // What the optional fields are called in a PATCH is not shown; that they may be left out, and
      // then stay as they are, is judged without their names.
      const name = `lmskit kept ${ctx.runId}`;
      const id = createdOrDeparture(ctx, await createUser(ctx, 'patch-kept', { name, fromApi: false }));
      const patched = await patchUser(ctx, id, {
        email: emailFor(ctx, 'patch-kept'),
        occupation: 'Conformance',
      });
      mustPass(judge(ctx.v1, 'updateUser', patched, [200]));
      const { banned, user } = await readBackByBan(ctx, id);
      return user.name === name && user.fromApi === false
        ? pass()
        : fail(
            `after a PATCH of e-mail and occupation only, the user reads name ${show(user.name)}, fromApi ${show(user.fromApi)}`,
            evidenceOf(banned, `name "${name}", fromApi false, as created`),
          );
    },
  },
  {
    id: 'v1.users.patch.optional-fields',
    area: 'v1.users',
    level: 'SHOULD',
    rules: ['001/users.patch-optional'],
    assumption:
      'PATCH /users/{userId} names the full name, password, role alias and API-management flag as createUser does: name, password, roleAlias, fromApi (their wire names are not shown)',
    title: 'a PATCH with name, password, roleAlias and fromApi answers 200; the name and flag read back',
    needs,
    run: async (ctx) => {
      const id = createdOrDeparture(ctx, await createUser(ctx, 'patch-optional'));
      const name = `lmskit renamed ${ctx.runId}`;
      const patched = await patchUser(ctx, id, {
        email: emailFor(ctx, 'patch-optional'),
        name,
        password: 'Another-456789',
        roleAlias: roleOf(ctx),
        fromApi: false,
      });
      mustPass(judge(ctx.v1, 'updateUser', patched, [200]));
      const { banned, user } = await readBackByBan(ctx, id);
      return user.name === name && user.fromApi === false
        ? pass()
        : fail(
            `after the PATCH the user reads name ${show(user.name)}, fromApi ${show(user.fromApi)}`,
            evidenceOf(banned, `name "${name}", fromApi false`),
          );
    },
  },
  {
    id: 'v1.users.patch.attributes-replace',
    area: 'v1.users',
    level: 'SHOULD',
    rules: ['001/users.patch-attributes'],
    assumption:
      'the custom attributes of PATCH /users/{userId} are sent as `attributes` (the wire name is not shown), and a required attribute (isRequired) must have a value in every complete set, so a set without it is refused',
    title:
      "a PATCH's attributes replace the whole set: a set leaving out a required attribute is refused, the full set accepted",
    needs,
    run: async (ctx) => {
      // v1 shows a user's values only at creation, so the replacement is seen by what it refuses: an
      // attribute made required for the moment of the check must be in every complete set.
      const other = await attributeOf(ctx, 'users', 1);
      const base = definition(ctx, 'required for a moment', { type: 1, isEditable: false });
      const created = await upsert(ctx, 'users', [base]);
      mustPass(judge(ctx.v1, 'createUserAttributes', created, [200]));
      const required = firstOf(created);
      if (!required)
        return fail('the new attribute is not in the answer', evidenceOf(created, 'the attribute made'));
      ctx.cleanup(() => neutralise(ctx, 'users', required));
      const id = createdOrDeparture(
        ctx,
        await createUser(ctx, 'patch-set', { attributes: { [other.apiId]: 'a', [required.apiId]: 'b' } }),
      );
      const raised = await upsert(ctx, 'users', [{ ...base, id: required.id, isRequired: true }]);
      try {
        mustPass(judge(ctx.v1, 'createUserAttributes', raised, [200]));
        const partial = await patchUser(ctx, id, {
          email: emailFor(ctx, 'patch-set'),
          attributes: { [other.apiId]: 'c' },
        });
        if (partial.status < 300)
          return fail(
            `a PATCH whose attributes leave out the required ${required.apiId} was accepted: the set did not replace the stored values`,
            evidenceOf(partial, '400: the complete set lacks a required attribute'),
          );
        mustPass(judge(ctx.v1, 'updateUser', partial, [400]));
        const whole = await patchUser(ctx, id, {
          email: emailFor(ctx, 'patch-set'),
          attributes: { [other.apiId]: 'c', [required.apiId]: 'd' },
        });
        mustPass(judge(ctx.v1, 'updateUser', whole, [200]), 'the complete set was refused too');
        return pass();
      } finally {
        // Not required a moment longer than the check needs: users made meanwhile would need it.
        await neutralise(ctx, 'users', required);
      }
    },
  },
];
