// What the write checks make on the deployment, all through v1 with the site API key (seed 001), and
// how each is neutralised after the run: users (banned afterwards), groups (renamed `lmskit removed
// …` and detached afterwards) and attribute definitions, which v1 cannot delete and which are left
// invisible and not required. Everything is named after the run (`ctx.runId`); a user's tag is unique
// across the suite, since an e-mail is unique across the site. (The files the AI checks upload are
// made in ../../fixtures.ts.)
import { type Context, evidenceOf } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Departure, Incomplete } from '../../outcomes.ts';
import type { Verdict } from '../../types.ts';
import { show } from './body.ts';
import { v2User } from './discover.ts';

const PASSWORD = 'Conformance-123';
/** The e-mail of the run's user of this tag. */
export const emailFor = (ctx: Context, tag: string) => `${ctx.runId}-${tag}@example.invalid`;
/** The role of the users the suite creates: `learner` unless the configuration names another. */
export const roleOf = (ctx: Context) => ctx.config.roleAlias ?? 'learner';

export const DAY = 86_400;
/** Midnight UTC `days` from today, in Unix seconds: a day-aligned time survives a day-precise store. */
export const dayFromNow = (days: number) => (Math.floor(Date.now() / 1000 / DAY) + days) * DAY;

// --- Users -------------------------------------------------------------------------------------

/**
 * Creates a user for the run (banned afterwards): named `lmskit <tag>`, with the tag's e-mail, the
 * suite's password and role, and `extra` (which may override them); `omit` leaves required fields
 * out, for the checks of their refusal. A refusal is the caller's to judge.
 */
export async function createUser(
  ctx: Context,
  tag: string,
  extra: Record<string, unknown> = {},
  omit: string[] = [],
) {
  const body: Record<string, unknown> = {
    name: `lmskit ${tag}`,
    email: emailFor(ctx, tag),
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

/**
 * A user made for the check, or the check fails: POST /users refused the run's fixture. Given the
 * name of the shared fixture it came from (`Context.once`), a check that did not make it is blocked
 * by the one that did (`Context.blame`) instead of failing again.
 */
export function createdOrDeparture(
  ctx: Context,
  made: { e: Exchange; id?: string },
  fixture?: string,
): string {
  if (!made.id || made.e.status >= 300) {
    const departure = new Departure(
      `a fixture user could not be created (role alias "${roleOf(ctx)}"; set --role-alias if the deployment names its roles otherwise)`,
      evidenceOf(made.e, '201 with the user'),
    );
    if (fixture) ctx.blame(fixture, departure);
    throw departure;
  }
  return made.id;
}

/** The run's user, shared by the v1 checks that read and change it. */
export const fixtureUser = (ctx: Context) => ctx.once('v1.fixtureUser', () => createUser(ctx, 'user'));

/** Runs `then` with the id of the run's user; the check fails when it could not be made (or is blocked by the check that made it). */
export async function withUser(ctx: Context, then: (id: string) => Promise<Verdict>): Promise<Verdict> {
  return then(createdOrDeparture(ctx, await fixtureUser(ctx), 'v1.fixtureUser'));
}

/** A user made for the check, or the check fails; what the v2 data checks look for by value. */
export async function newUser(ctx: Context, tag: string, groups: number[] = []) {
  const apiId = createdOrDeparture(ctx, await createUser(ctx, tag, groups.length ? { groups } : {}));
  return { apiId, name: `lmskit ${tag}`, email: emailFor(ctx, tag), role: roleOf(ctx) };
}

/**
 * A user made once per run and tag, and found through v2 by e-mail: the target of a v2 write. With a
 * role alias (seed 001 does not list the roles; the suite uses the role names of `--role-key`), a
 * refusal of it makes the check incomplete: the deployment names its roles otherwise.
 */
export const userInV2 = (ctx: Context, tag: string, roleAlias?: string) =>
  ctx.once(`fixtures.userInV2.${tag}`, async () => {
    const made = await createUser(ctx, tag, roleAlias ? { roleAlias } : {});
    if (roleAlias && !made.id && made.e.status >= 400 && made.e.status < 500)
      throw new Incomplete(
        `v1 did not create a user with role alias ${roleAlias} (${made.e.status}): the suite needs one to act on`,
      );
    const apiId = createdOrDeparture(ctx, made);
    const email = emailFor(ctx, tag);
    return { apiId, email, id: (await v2User(ctx, email)).id };
  });

// --- Groups ------------------------------------------------------------------------------------

/** A group made for the run, named `lmskit <run> <tag>` (renamed and detached afterwards). */
export async function createGroup(ctx: Context, tag: string, extra: Record<string, unknown> = {}) {
  const name = `lmskit ${ctx.runId} ${tag}`;
  const e = await ctx.v1.call('createGroup', { headers: ctx.v1Headers(), body: { name, ...extra } });
  const id = (e.body as { id?: number })?.id;
  if (id === undefined || e.status >= 300)
    throw new Departure('a group could not be created through v1', evidenceOf(e, '201 with the group'));
  ctx.cleanup(() =>
    ctx.v1.call('updateGroup', {
      params: { groupId: id },
      headers: ctx.v1Headers(),
      body: { name: `lmskit removed ${ctx.runId}`, parentId: null },
    }),
  );
  return { e, id, name };
}

/** The run's group, shared by the v1 checks that read it. */
export const fixtureGroup = (ctx: Context) => ctx.once('v1.fixtureGroup', () => createGroup(ctx, 'group'));

/**
 * A group made once per run and tag, with one member (`<tag>-member`), so that the group's
 * assignments show whether they are read per group or per member.
 */
export const groupWithMember = (ctx: Context, tag: string) =>
  ctx.once(`fixtures.groupWithMember.${tag}`, async () => {
    const group = await createGroup(ctx, tag);
    createdOrDeparture(ctx, await createUser(ctx, `${tag}-member`, { groups: [group.id] }));
    return group;
  });

// --- Attribute definitions -----------------------------------------------------------------------

export type AttributeScope = 'users' | 'groups';

export type Attribute = {
  id: number;
  name: string;
  type: number;
  apiId: string;
  position?: number;
  extraData: { value: string }[] | null;
};

/** An attribute definition for the run: invisible, not required, positioned last. */
export const definition = (ctx: Context, tag: string, extra: Record<string, unknown> = {}) => ({
  name: `lmskit ${ctx.runId} ${tag}`,
  position: 999,
  isRequired: false,
  isVisible: false,
  ...extra,
});

/** The operation that creates or updates definitions of a scope. */
export const upsertOperation = (scope: AttributeScope) =>
  scope === 'users' ? 'createUserAttributes' : 'createGroupAttributes';

/** Posts definitions, untyped: the checks send bodies the contract refuses, too. */
export const upsert = (ctx: Context, scope: AttributeScope, body: unknown) =>
  ctx.v1.callRaw(upsertOperation(scope), { headers: ctx.v1Headers(), body });

/** The first definition of an answer. */
export const firstOf = (e: Exchange) => (e.body as Attribute[] | undefined)?.[0];

/**
 * Leaves a definition the run made (or one a deployment accepted where it should have refused it)
 * invisible and not required: users' are matched by `id`, groups' by `apiId` (seed 001).
 */
export function neutralise(ctx: Context, scope: AttributeScope, made: Attribute): Promise<Exchange> {
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

/** Seed 001, Custom attribute: the types 1-8; 3 and 4 (single and multiple choice) have options. */
const ATTRIBUTE_TYPES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export const CHOICE_TYPES = [3, 4];
const OPTIONS = [
  { position: 1, value: 'Red' },
  { position: 2, value: 'Blue' },
];

/** Definitions of types 1-8 made once per run and scope (choices with the options Red and Blue). */
export const attributeSet = (ctx: Context, scope: AttributeScope) =>
  ctx.once(`v1data.attributes.${scope}`, async () => {
    const sent = ATTRIBUTE_TYPES.map((type) => ({
      ...definition(ctx, `${scope === 'users' ? 'user' : 'group'} type ${type}`, {
        position: 990 + type,
        ...(scope === 'users' ? { isEditable: false } : {}),
        ...(CHOICE_TYPES.includes(type) ? { extraData: OPTIONS } : {}),
      }),
      type: type as number,
      apiId: `${ctx.runId}${scope === 'users' ? 'u' : 'g'}${type}`,
    }));
    const e = await upsert(ctx, scope, sent);
    const answered = Array.isArray(e.body) ? (e.body as Attribute[]) : [];
    const byType = new Map<number, Attribute>();
    for (const item of sent) {
      const made = answered.find((a) => a?.apiId === item.apiId);
      if (made) byType.set(item.type, made);
    }
    return { e, sent, answered, byType };
  });

/** The run's definition of a type; a deployment that refused to make it departs (type-values). */
export async function attributeOf(ctx: Context, scope: AttributeScope, type: number): Promise<Attribute> {
  const set = await attributeSet(ctx, scope);
  const made = set.byType.get(type);
  if (set.e.status >= 300 || !made)
    throw new Departure(
      `the ${scope === 'users' ? 'user' : 'group'} attribute definitions of types 1-8 could not be made (POST /custom/attributes/${scope})`,
      evidenceOf(set.e, '200 with the attributes'),
    );
  return made;
}

// --- Attribute values ------------------------------------------------------------------------------

/** The values the run gives to its user attributes of types 1 (text), 2 (date), 6 (yes/no), 8 (number). */
const SAMPLE = { text: 'Sales', date: '2024-03-01', yesNo: true, number: 42 };

/** What a stored value departs in from the sample given, by type; an empty list when it agrees. */
export function valueProblems(type: number, value: unknown): string[] {
  switch (type) {
    case 1:
      return value === SAMPLE.text ? [] : [`the text value is ${show(value)}, sent "${SAMPLE.text}"`];
    case 2:
      return typeof value === 'string' &&
        (value.startsWith(SAMPLE.date) || Date.parse(value) === Date.parse(SAMPLE.date))
        ? []
        : [`the date value is ${show(value)}, sent "${SAMPLE.date}"`];
    case 6:
      return value === true ? [] : [`the yes/no value is ${show(value)}, not the boolean true sent`];
    case 8:
      return (typeof value === 'number' || typeof value === 'string') && Number(value) === SAMPLE.number
        ? []
        : [`the number value is ${show(value)}, sent ${SAMPLE.number}`];
    default:
      return [];
  }
}

const sampleOf = (type: number) =>
  type === 1 ? SAMPLE.text : type === 2 ? SAMPLE.date : type === 6 ? SAMPLE.yesNo : SAMPLE.number;

/** The user attributes of types 1, 2, 6 and 8 with the sample values, keyed by `apiId`. */
export async function sampleValues(ctx: Context, types = [1, 2, 6, 8]) {
  const defs = await Promise.all(types.map((type) => attributeOf(ctx, 'users', type)));
  const values = Object.fromEntries(defs.map((d, i) => [d.apiId, sampleOf(types[i] as number)]));
  return { defs: defs.map((d, i) => ({ ...d, sentType: types[i] as number })), values };
}
