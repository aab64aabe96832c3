// Fixtures of the v1 write checks (v1-writes.ts, v1-data.ts), made through v1 with the site API key
// and named after the run: users (banned afterwards), groups (renamed `lmskit removed …`
// afterwards) and attribute definitions, which v1 cannot delete and which are made invisible and
// not required (`definition`, `neutralise`).
import { type Context, evidenceOf } from '../context.ts';
import type { Exchange } from '../http.ts';
import { Departure } from '../outcomes.ts';
import type { Verdict } from '../types.ts';

export const email = (ctx: Context, tag: string) => `${ctx.runId}-${tag}@example.invalid`;
export const PASSWORD = 'Conformance-123';
/** The role of the users the suite creates: `learner` unless the configuration names another. */
export const roleOf = (ctx: Context) => ctx.config.roleAlias ?? 'learner';

/**
 * Creates a user for the run (banned afterwards); a refusal is the caller's to judge. `omit` leaves
 * required fields out, for the checks of their refusal.
 */
export async function createUser(
  ctx: Context,
  tag: string,
  extra: Record<string, unknown> = {},
  omit: string[] = [],
) {
  const body: Record<string, unknown> = {
    name: `lmskit ${tag}`,
    email: email(ctx, tag),
    password: PASSWORD,
    roleAlias: roleOf(ctx),
    ...extra,
  };
  for (const field of omit) delete body[field];
  const e = await ctx.v1.callRaw('createUser', { headers: ctx.v1Headers(), body });
  const id = (e.body as { id?: string })?.id;
  if (e.status < 300 && id)
    ctx.cleanup(() => ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } }));
  return { e, id };
}

/** The run's user, shared by the checks that read and change it. */
export const fixtureUser = (ctx: Context) => ctx.once('v1.fixtureUser', () => createUser(ctx, 'user'));

/** A user made for the check, or the check fails: POST /users refused the run's fixture. */
export function createdOrDeparture(ctx: Context, made: { e: Exchange; id?: string }): string {
  if (!made.id || made.e.status >= 300)
    throw new Departure(
      `a fixture user could not be created (role alias "${roleOf(ctx)}"; set --role-alias if the deployment names its roles otherwise)`,
      evidenceOf(made.e, '201 with the user'),
    );
  return made.id;
}

export async function withUser(ctx: Context, then: (id: string) => Promise<Verdict>): Promise<Verdict> {
  return then(createdOrDeparture(ctx, await fixtureUser(ctx)));
}

/** A group made for the run (renamed afterwards). */
export async function createGroup(ctx: Context, tag: string, extra: Record<string, unknown> = {}) {
  const e = await ctx.v1.call('createGroup', {
    headers: ctx.v1Headers(),
    body: { name: `lmskit ${ctx.runId} ${tag}`, ...extra },
  });
  const id = (e.body as { id?: number })?.id;
  if (id !== undefined && e.status < 300)
    ctx.cleanup(() =>
      ctx.v1.call('updateGroup', {
        params: { groupId: id },
        headers: ctx.v1Headers(),
        body: { name: `lmskit removed ${ctx.runId}`, parentId: null },
      }),
    );
  if (id === undefined)
    throw new Departure('a group could not be created', evidenceOf(e, '201 with the group'));
  return { e, id, name: `lmskit ${ctx.runId} ${tag}` };
}

export const fixtureGroup = (ctx: Context) => ctx.once('v1.fixtureGroup', () => createGroup(ctx, 'group'));

/** An attribute definition for the run: invisible, not required, positioned last. */
export const definition = (ctx: Context, tag: string, extra: Record<string, unknown> = {}) => ({
  name: `lmskit ${ctx.runId} ${tag}`,
  position: 999,
  isRequired: false,
  isVisible: false,
  ...extra,
});

/** Untyped: the checks send attribute bodies the contract refuses, too. */
export const upsert = (ctx: Context, scope: 'users' | 'groups', body: unknown) =>
  ctx.v1.callRaw(scope === 'users' ? 'createUserAttributes' : 'createGroupAttributes', {
    headers: ctx.v1Headers(),
    body,
  });

export type Attribute = {
  id: number;
  name: string;
  type: number;
  apiId: string;
  position?: number;
  extraData: { value: string }[] | null;
};
export const firstOf = (e: Exchange) => (e.body as Attribute[] | undefined)?.[0];

/**
 * Leaves a definition the run made (or one a deployment accepted where it should have refused it)
 * invisible and not required: users' are matched by `id`, groups' by `apiId` (seed 001).
 */
export function neutralise(ctx: Context, scope: 'users' | 'groups', made: Attribute): Promise<Exchange> {
  const options = made.extraData?.length
    ? { extraData: made.extraData.map((o, i) => ({ position: i + 1, value: o.value })) }
    : {};
  const common = {
    name: made.name,
    type: made.type,
    position: made.position ?? 999,
    isRequired: false,
    isVisible: false,
    ...options,
  };
  return upsert(
    ctx,
    scope,
    scope === 'users' ? [{ id: made.id, ...common, isEditable: false }] : [{ apiId: made.apiId, ...common }],
  );
}
