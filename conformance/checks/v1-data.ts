// v1 data rules (seed 001): what becomes of the values a request carries and what the answers say of
// them — attribute types and their values, the required fields of attributes, users and groups, the
// deadlines and `assignAt` of assignments, group attributes keyed by name, the statistics' users and
// leaders — and the webhook events: their bodies, their slash-form types, their case-sensitive names.
// Judged by the field: a field the seed states is a MUST wherever it sits, also inside a schema the
// kit partly assumed; where the seed states content but not its name (`assignAt` in the lists), by
// value. Writes need --allow-writes; fixtures are neutralised as in v1-writes.ts (./v1-fixtures.ts).
import { formatErrors, SpecSchemas } from '../../lib/openapi-schemas.ts';
import { type Context, evidenceOf, fail, loadContract, pass } from '../context.ts';
import { documentedSpec } from '../documented.ts';
import type { Exchange } from '../http.ts';
import { Departure, Incomplete } from '../outcomes.ts';
import type { Check, Verdict } from '../types.ts';
import { judge, keyHeaders, readAssumed, UNKNOWN_ID, v1CourseId, v2User } from './helpers.ts';
import {
  type Attribute,
  createdOrDeparture,
  createGroup,
  createUser,
  definition,
  email,
  firstOf,
  neutralise,
  roleOf,
  upsert,
} from './v1-fixtures.ts';

const needs = { apiKey: true, writes: true };
const area = (a: string) => `v1.${a}`;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));
const isPass = (v: Verdict) => v.status === 'pass';

const DAY = 86_400;
/** Midnight UTC `days` from today, in Unix seconds: a day-aligned time survives a day-precise store. */
const dayFromNow = (days: number) => (Math.floor(Date.now() / 1000 / DAY) + days) * DAY;

// --- Events: judged against the contract's schema of their type --------------------------------

let eventValidators: { documented: SpecSchemas; whole: SpecSchemas } | undefined;

/** Problems of an event against its type's schema (components/schemas), documented and assumed. */
function eventProblems(body: unknown, schema: string) {
  eventValidators ??= {
    documented: new SpecSchemas(documentedSpec(loadContract('v1'))),
    whole: new SpecSchemas(loadContract('v1')),
  };
  const at = ['components', 'schemas', schema];
  const documented = formatErrors(eventValidators.documented.errors(at, body));
  const assumed = formatErrors(eventValidators.whole.errors(at, body)).filter((p) => !documented.includes(p));
  return { documented, assumed };
}

const lastEvent = (ctx: Context, event: string) =>
  ctx.v1.call('getLastWebhookEvent', { params: { event }, headers: ctx.v1Headers() });

/** The last event of a type, judged as the envelope and as that type's event (seed 001, Events). */
function judgeEvent(ctx: Context, e: Exchange, event: string, schema: string): Verdict {
  const verdict = judge(ctx.v1, 'getLastWebhookEvent', e, [200]);
  if (!isPass(verdict)) return verdict;
  const want = `the ${event} event as openapi/v1 ${schema}`;
  const { documented, assumed } = eventProblems(e.body, schema);
  if (documented.length)
    return fail(`the last ${event} event departs from the seed's body`, evidenceOf(e, want, documented));
  ctx.v1.noteAssumed(
    assumed.map((p) => `GET /webhook/${event}/last (${schema}): ${p}`),
    evidenceOf(e, want, assumed),
  );
  return pass();
}

// --- Attribute definitions: one of every type, for users and for groups ------------------------

const TYPES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const CHOICE = [3, 4];
const OPTIONS = [
  { position: 1, value: 'Red' },
  { position: 2, value: 'Blue' },
];
type Scope = 'users' | 'groups';
const upsertOperation = (scope: Scope) =>
  scope === 'users' ? 'createUserAttributes' : 'createGroupAttributes';

/** Definitions of types 1-8 made once per run and scope: invisible, not required, positioned last. */
const attributeSet = (ctx: Context, scope: Scope) =>
  ctx.once(`v1data.attributes.${scope}`, async () => {
    const sent = TYPES.map((type) => ({
      ...definition(ctx, `${scope === 'users' ? 'user' : 'group'} type ${type}`, {
        position: 990 + type,
        ...(scope === 'users' ? { isEditable: false } : {}),
        ...(CHOICE.includes(type) ? { extraData: OPTIONS } : {}),
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
async function attributeOf(ctx: Context, scope: Scope, type: number): Promise<Attribute> {
  const set = await attributeSet(ctx, scope);
  const made = set.byType.get(type);
  if (set.e.status >= 300 || !made)
    throw new Departure(
      `the ${scope === 'users' ? 'user' : 'group'} attribute definitions of types 1-8 could not be made (POST /custom/attributes/${scope})`,
      evidenceOf(set.e, '200 with the attributes'),
    );
  return made;
}

/** The words a validation message of seed 001 holds ("name is required", …), and where it is keyed. */
const MESSAGES = [
  {
    field: 'name',
    says: 'name is required',
    words: [/name/i, /required/i],
    item: (ctx: Context) => {
      const { name: _name, ...rest } = definition(ctx, 'nameless', { type: 1 });
      return rest;
    },
  },
  {
    field: 'type',
    says: 'invalid attribute type',
    words: [/invalid/i, /type/i],
    item: (ctx: Context) => definition(ctx, 'type nine', { type: 9 }),
  },
  {
    field: 'extraData',
    says: 'options required for choice type attributes',
    words: [/option/i, /required/i],
    item: (ctx: Context) => definition(ctx, 'no options', { type: 3 }),
  },
];

// --- Users' attribute values -------------------------------------------------------------------

const SAMPLE = { text: 'Sales', date: '2024-03-01', yesNo: true, number: 42 };

/** What a stored value departs in from the sample given, by type; an empty list when it agrees. */
function valueProblems(type: number, value: unknown): string[] {
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
async function sampleValues(ctx: Context, types = [1, 2, 6, 8]) {
  const defs = await Promise.all(types.map((type) => attributeOf(ctx, 'users', type)));
  const values = Object.fromEntries(defs.map((d, i) => [d.apiId, sampleOf(types[i] as number)]));
  return { defs: defs.map((d, i) => ({ ...d, sentType: types[i] as number })), values };
}

/** A user made with the given attribute values refused with 400 (seed 001, Type rules). */
async function valueRefused(ctx: Context, tag: string, type: number, value: unknown): Promise<Verdict> {
  const def = await attributeOf(ctx, 'users', type);
  const { e } = await createUser(ctx, tag, { attributes: { [def.apiId]: value } });
  const verdict = judge(ctx.v1, 'createUser', e, [400]);
  return isPass(verdict)
    ? verdict
    : { ...verdict, reason: `a user with ${show(value)} for a type ${type} attribute: ${verdict.reason}` };
}

// --- Users -------------------------------------------------------------------------------------

const PROFILE = { occupation: 'Conformance tester', location: 'Lisbon', timezone: 'Europe/Lisbon' };

/** A user made with a given id and profile fields (seed 001, POST /users body). */
const profiledUser = (ctx: Context) =>
  ctx.once('v1data.profiledUser', async () => {
    const given = `${ctx.runId}given`;
    const made = await createUser(ctx, 'profiled', {
      id: given,
      ...PROFILE,
      bio: 'Made by the lmskit conformance suite.',
    });
    return { ...made, given };
  });

const patchUser = (ctx: Context, userId: string, body: Obj) =>
  ctx.v1.callRaw('updateUser', { params: { userId }, headers: ctx.v1Headers(), body });

/** The expert's refused ban (--expert-user), asked once per run. */
const expertBan = (ctx: Context) =>
  ctx.once('v1data.expertBan', () =>
    ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id: ctx.config.expertUserId ?? '' } }),
  );

/** The e-mail of a v1 user, found in the lists that show users: statistics and course assignments. */
async function emailOf(ctx: Context, userId: string, courseIds: number[]): Promise<string | undefined> {
  const stats = obj((await ctx.v1.call('getStatistics', { headers: ctx.v1Headers() })).body);
  const users = [
    ...list(stats.usersWithoutActivity),
    ...list(stats.usersWithoutResults),
    ...list(stats.leaders).map((l) => obj(l.user)),
  ];
  for (const courseId of courseIds.slice(0, 3)) {
    const e = await ctx.v1.call('listCourseAssignments', { params: { courseId }, headers: ctx.v1Headers() });
    users.push(...list(obj(e.body).assignments).map((a) => obj(a.user)));
  }
  const found = users.find((u) => u.id === userId)?.email;
  return typeof found === 'string' ? found : undefined;
}

// --- Groups ------------------------------------------------------------------------------------

const statisticsOf = async (ctx: Context, groupId: number) => {
  const e = await ctx.v1.call('getGroupStatistics', { params: { groupId }, headers: ctx.v1Headers() });
  return { e, verdict: judge(ctx.v1, 'getGroupStatistics', e, [200]), body: obj(e.body) };
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

/**
 * A group whose statistics list leaders: v1 lists no groups, so they are found in the memberships
 * get_user shows of the users find_user lists (read through the kit's names), their statistics read
 * through v1 until one has leaders.
 */
const groupWithLeaders = (ctx: Context) =>
  ctx.once('v1data.groupWithLeaders', async () => {
    const headers = keyHeaders(ctx, 'getUser');
    const found = await ctx.v2.call('searchUsers', { query: { query: '@', limit: 50 }, headers });
    const users = readAssumed(found, 'the users found', (b: { users?: { id: number }[] }) => b.users);
    const seen = new Set<number>();
    for (const u of users.slice(0, 10)) {
      const detail = await ctx.v2.call('getUser', { params: { userId: u.id }, headers });
      for (const g of list(obj(detail.body).groups)) {
        const id = g.id;
        if (typeof id !== 'number' || seen.has(id) || seen.size >= 8) continue;
        seen.add(id);
        const stats = await statisticsOf(ctx, id);
        if (!isPass(stats.verdict) || list(stats.body.leaders).length) return { id, ...stats };
      }
    }
    throw new Incomplete(
      `none of the groups of the first users find_user lists (${[...seen].join(', ') || 'none found'}) has leaders: nothing to judge`,
    );
  });

/** Leaders (platform or group): each has its `user`, and `resultValue` is an average of results. */
async function judgeLeaders(ctx: Context, e: Exchange, where: string): Promise<Verdict> {
  const leaders = Array.isArray(obj(e.body).leaders) ? (obj(e.body).leaders as unknown[]) : [];
  if (!leaders.length) throw new Incomplete(`${where} has no leaders: nothing to judge`);
  const missing = leaders.findIndex((l) => !obj(l).user || typeof obj(l).user !== 'object');
  if (missing >= 0)
    return fail(
      `leader ${missing + 1} of ${where} has no user`,
      evidenceOf(e, 'each leader {coursesCount, resultValue, user}'),
    );
  // The average of a user's results lies between their lowest and highest result (±1 for rounding).
  for (const leader of leaders.slice(0, 3).map(obj)) {
    const userId = readAssumed(e, "a leader's user id", () => {
      const id = obj(leader.user).id;
      return typeof id === 'string' ? id : undefined;
    });
    const mine = await ctx.v1.call('listUserAssignments', { params: { userId }, headers: ctx.v1Headers() });
    const verdict = judge(ctx.v1, 'listUserAssignments', mine, [200]);
    if (!isPass(verdict)) return verdict;
    const results = list(obj(mine.body).assignments)
      .map((a) => a.resultValue)
      .filter((v): v is number => typeof v === 'number');
    if (!results.length) continue;
    const [low, high] = [Math.min(...results), Math.max(...results)];
    const value = leader.resultValue as number;
    if (value < low - 1 || value > high + 1)
      return fail(
        `${where}: leader ${userId} has resultValue ${value}, outside the results of their assignments (${low}-${high}): not their average`,
        evidenceOf(mine, `results around ${value}`),
      );
  }
  return pass();
}

// --- Assignments -------------------------------------------------------------------------------

const STAMPS = ['assignedAt', 'startedAt', 'deadlineAt', 'finishedAt'] as const;

/** A user assigned a course with `assignAt` and `deadlineAt`, once per run. */
const timed = (ctx: Context) =>
  ctx.once('v1data.timed', async () => {
    const courseId = await v1CourseId(ctx);
    const id = createdOrDeparture(ctx, await createUser(ctx, 'timed'));
    const assignAt = dayFromNow(7);
    const deadlineAt = dayFromNow(37);
    const e = await ctx.v1.call('assignCourse', {
      params: { courseId },
      headers: ctx.v1Headers(),
      body: { users: [id], assignAt, deadlineAt },
    });
    return { courseId, id, assignAt, deadlineAt, e };
  });

interface View {
  where: string;
  a: Obj;
  e: Exchange;
}

/** The timed assignment as the user's and the course's lists show it. */
async function timedViews(ctx: Context) {
  const t = await timed(ctx);
  const assigned = judge(ctx.v1, 'assignCourse', t.e, [200]);
  if (!isPass(assigned)) return { t, verdict: assigned, views: [] as View[] };
  const views: View[] = [];
  const mine = await ctx.v1.call('listUserAssignments', {
    params: { userId: t.id },
    headers: ctx.v1Headers(),
  });
  const mineOk = judge(ctx.v1, 'listUserAssignments', mine, [200]);
  if (!isPass(mineOk)) return { t, verdict: mineOk, views };
  const a = list(obj(mine.body).assignments).find((x) => obj(x.course).id === t.courseId);
  if (!a)
    return {
      t,
      verdict: fail(
        `course ${t.courseId} is not in the assignments of the user it was assigned to`,
        evidenceOf(mine, `an assignment of course ${t.courseId}`),
      ),
      views,
    };
  views.push({ where: "the user's list", a, e: mine });
  const theirs = await ctx.v1.call('listCourseAssignments', {
    params: { courseId: t.courseId },
    headers: ctx.v1Headers(),
  });
  const theirsOk = judge(ctx.v1, 'listCourseAssignments', theirs, [200]);
  if (!isPass(theirsOk)) return { t, verdict: theirsOk, views };
  const body = obj(theirs.body);
  const b = list(body.assignments).find((x) => obj(x.user).id === t.id);
  if (b) views.push({ where: "the course's list", a: b, e: theirs });
  else if (!((body.totalCount as number) > list(body.assignments).length))
    return {
      t,
      verdict: fail(
        `user ${t.id} is not in the assignments of course ${t.courseId}`,
        evidenceOf(theirs, `an assignment of user ${t.id}`),
      ),
      views,
    };
  return { t, verdict: pass(), views };
}

/** The fields of one assignment both of its lists show (seed 001, Assignment). */
const SHARED = [
  'progressValue',
  'resultValue',
  'isCourseStarted',
  'isCourseFinished',
  'isExpired',
  ...STAMPS,
] as const;

export const v1DataChecks: Check[] = [
  // --- Custom attributes ---
  {
    id: 'v1.attributes.type-values',
    area: area('attributes'),
    level: 'MUST',
    rules: [
      '001/attributes.type-values',
      '001/attributes.extradata-null',
      '001/attributes.users-response',
      '001/attributes.groups-response',
    ],
    title:
      'attributes of each type 1-8 are accepted and answered with their type; extraData null but for choices',
    needs,
    run: async (ctx) => {
      for (const scope of ['users', 'groups'] as const) {
        const set = await attributeSet(ctx, scope);
        const verdict = judge(ctx.v1, upsertOperation(scope), set.e, [200]);
        if (!isPass(verdict)) return verdict;
        for (const item of set.sent) {
          const made = set.answered.find((a) => a?.apiId === item.apiId);
          const want = `type ${item.type}${CHOICE.includes(item.type) ? ' with options Red, Blue' : ', extraData null'}`;
          if (!made)
            return fail(
              `the ${scope} attribute of type ${item.type} (apiId ${item.apiId}) is not in the answer`,
              evidenceOf(set.e, `an attribute with apiId ${item.apiId}`),
            );
          if (made.type !== item.type)
            return fail(
              `a ${scope} attribute posted with type ${item.type} was answered with type ${made.type}`,
              evidenceOf(set.e, want),
            );
          const options = (made.extraData ?? []).map((o) => o.value).sort();
          if (CHOICE.includes(item.type) ? options.join() !== 'Blue,Red' : made.extraData !== null)
            return fail(
              `the ${scope} attribute of type ${item.type} has extraData ${show(made.extraData)}`,
              evidenceOf(set.e, want),
            );
        }
        // Read back through the GET of the definitions where it answers (its path is the kit's).
        const back = await ctx.v1.callRaw(scope === 'users' ? 'listUserAttributes' : 'listGroupAttributes', {
          headers: ctx.v1Headers(),
        });
        if (back.status !== 200 || !Array.isArray(back.body)) continue;
        for (const made of set.answered) {
          const stored = (back.body as Attribute[]).find((a) => a?.apiId === made.apiId);
          if (stored && stored.type !== made.type)
            return fail(
              `the ${scope} attribute ${made.apiId} reads back with type ${stored.type}, answered ${made.type}`,
              evidenceOf(back, `type ${made.type}`),
            );
        }
      }
      return pass();
    },
  },
  {
    id: 'v1.attributes.required-fields',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.required-fields', '001/errors.shape'],
    title:
      'an attribute without type, position, isRequired or isVisible (a user attribute without isEditable) is refused with 400',
    needs,
    run: async (ctx) => {
      const fields = {
        groups: ['type', 'position', 'isRequired', 'isVisible'],
        users: ['type', 'position', 'isRequired', 'isVisible', 'isEditable'],
      };
      for (const scope of ['groups', 'users'] as const) {
        for (const field of fields[scope]) {
          const item: Obj = definition(ctx, `${scope} without ${field}`, {
            type: 1,
            ...(scope === 'users' ? { isEditable: false } : {}),
          });
          delete item[field];
          const e = await upsert(ctx, scope, [item]);
          const made = e.status < 300 ? firstOf(e) : undefined;
          if (made) ctx.cleanup(() => neutralise(ctx, scope, made));
          const verdict = judge(ctx.v1, upsertOperation(scope), e, [400]);
          if (!isPass(verdict))
            return { ...verdict, reason: `a ${scope} attribute without ${field}: ${verdict.reason}` };
        }
      }
      return pass();
    },
  },
  {
    id: 'v1.attributes.error-messages',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.error-messages', '001/errors.validation'],
    title:
      'the refusals say "name is required", "invalid attribute type", "options required for choice type attributes"',
    needs,
    run: async (ctx) => {
      for (const { field, says, words, item } of MESSAGES) {
        const e = await upsert(ctx, 'groups', [item(ctx)]);
        const made = e.status < 300 ? firstOf(e) : undefined;
        if (made) ctx.cleanup(() => neutralise(ctx, 'groups', made));
        const verdict = judge(ctx.v1, 'createGroupAttributes', e, [400]);
        if (!isPass(verdict)) return { ...verdict, reason: `"${says}": ${verdict.reason}` };
        const body = obj(e.body);
        const keyed = obj(body.errors)[`attributes[0].${field}`];
        const messages = [
          ...(Array.isArray(keyed) ? keyed : []),
          ...Object.values(obj(body.errors)).flat(),
          body.message,
        ].filter((m): m is string => typeof m === 'string');
        if (!messages.some((m) => words.every((w) => w.test(m))))
          return fail(
            `no message of the refusal says "${says}" (${messages.map((m) => `"${m}"`).join(', ') || 'none'})`,
            evidenceOf(e, `errors["attributes[0].${field}"]: "${says}"`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.users.attributes',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.attributes', '001/attributes.yes-no-boolean'],
    title:
      'attribute values given at creation are answered keyed by apiId as given, a yes/no as a boolean, and kept',
    needs,
    run: async (ctx) => {
      const { defs, values } = await sampleValues(ctx);
      const made = await createUser(ctx, 'valued', { attributes: values });
      const verdict = judge(ctx.v1, 'createUser', made.e, [201]);
      if (!isPass(verdict)) return verdict;
      const answered = obj(obj(made.e.body).attributes);
      const problems = defs.flatMap((d) => valueProblems(d.sentType, answered[d.apiId]));
      if (problems.length)
        return fail(
          `the new user's attributes: ${problems.join('; ')}`,
          evidenceOf(made.e, `attributes ${JSON.stringify(values)}`),
        );
      // Read back: the user.created event carries the stored values (seed 001, Events: userAttributes).
      const e = await lastEvent(ctx, 'user.created');
      const read = judge(ctx.v1, 'getLastWebhookEvent', e, [200]);
      if (!isPass(read)) return read;
      const user = obj(obj(obj(e.body).body).user);
      if (user.email !== email(ctx, 'valued'))
        return fail(
          'the last user.created event is not the new user’s: the stored values cannot be read back',
          evidenceOf(e, `body.user.email ${email(ctx, 'valued')}`),
        );
      const stored = list(user.userAttributes);
      const kept = defs.flatMap((d) =>
        valueProblems(d.sentType, stored.find((a) => a.apiId === d.apiId)?.value),
      );
      return kept.length
        ? fail(
            `the user.created event's userAttributes: ${kept.join('; ')}`,
            evidenceOf(e, 'userAttributes with the values given'),
          )
        : pass();
    },
  },
  {
    id: 'v1.attributes.date-iso',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.date-iso', '001/errors.shape'],
    title: 'a user whose date attribute value is not an ISO date (01/03/2024) is refused with 400',
    needs,
    run: (ctx) => valueRefused(ctx, 'bad-date', 2, '01/03/2024'),
  },
  {
    id: 'v1.attributes.number-numeric',
    area: area('attributes'),
    level: 'MUST',
    rules: ['001/attributes.number-numeric', '001/errors.shape'],
    title: 'a user whose number attribute value is not numeric ("forty-two") is refused with 400',
    needs,
    run: (ctx) => valueRefused(ctx, 'bad-number', 8, 'forty-two'),
  },

  // --- Users ---
  {
    id: 'v1.users.create.required-fields',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.required-fields', '001/errors.shape'],
    title: 'a user without name, email, password or roleAlias is refused with 400',
    needs,
    run: async (ctx) => {
      for (const field of ['name', 'email', 'password', 'roleAlias']) {
        const { e } = await createUser(ctx, `no-${field.toLowerCase()}`, {}, [field]);
        const verdict = judge(ctx.v1, 'createUser', e, [400]);
        if (!isPass(verdict)) return { ...verdict, reason: `a user without ${field}: ${verdict.reason}` };
      }
      return pass();
    },
  },
  {
    id: 'v1.users.create.id-given',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.id-given'],
    title: 'a user created with an id has that id, and GET /users/{id}/assignments knows it',
    needs,
    run: async (ctx) => {
      const made = await profiledUser(ctx);
      const verdict = judge(ctx.v1, 'createUser', made.e, [201]);
      if (!isPass(verdict)) return verdict;
      if (made.id !== made.given)
        return fail(
          `the user was created with id ${made.given} and answered with id ${made.id}`,
          evidenceOf(made.e, `id ${made.given}`),
        );
      const e = await ctx.v1.call('listUserAssignments', {
        params: { userId: made.given },
        headers: ctx.v1Headers(),
      });
      return judge(ctx.v1, 'listUserAssignments', e, [200]);
    },
  },
  {
    id: 'v1.users.create.profile-fields',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.profile-fields'],
    title: 'the occupation, location and timezone given at creation are answered in the user',
    needs,
    run: async (ctx) => {
      // v1 shows these fields only in the answer to POST /users: it has no read of a user.
      const { e } = await profiledUser(ctx);
      const verdict = judge(ctx.v1, 'createUser', e, [201]);
      if (!isPass(verdict)) return verdict;
      const user = obj(e.body);
      const off = Object.entries(PROFILE).filter(([k, v]) => user[k] !== v);
      return off.length
        ? fail(
            off.map(([k, v]) => `${k} is ${show(user[k])}, given "${v}"`).join('; '),
            evidenceOf(e, JSON.stringify(PROFILE)),
          )
        : pass();
    },
  },
  {
    id: 'v1.users.create.deadline',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.create-deadline', '001/users.create-assigns'],
    title: 'a user created with courses and deadlineAt has that deadline on those assignments',
    needs,
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const deadlineAt = dayFromNow(30);
      const made = await createUser(ctx, 'deadline', { courses: [courseId], deadlineAt });
      const created = judge(ctx.v1, 'createUser', made.e, [201]);
      if (!isPass(created)) return created;
      const e = await ctx.v1.call('listUserAssignments', {
        params: { userId: made.id ?? '' },
        headers: ctx.v1Headers(),
      });
      const verdict = judge(ctx.v1, 'listUserAssignments', e, [200]);
      if (!isPass(verdict)) return verdict;
      const a = list(obj(e.body).assignments).find((x) => obj(x.course).id === courseId);
      if (!a)
        return fail(
          `course ${courseId} is not among the new user's assignments`,
          evidenceOf(e, `an assignment of course ${courseId}`),
        );
      return a.deadlineAt === deadlineAt
        ? pass()
        : fail(
            `the assignment made at creation has deadlineAt ${show(a.deadlineAt)}, given ${deadlineAt}`,
            evidenceOf(e, `deadlineAt ${deadlineAt}`),
          );
    },
  },
  {
    id: 'v1.users.patch.email-required',
    area: area('users'),
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
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.patch-email-unique', '001/errors.shape'],
    title: "a PATCH of a user with another user's e-mail is refused with 400",
    needs,
    run: async (ctx) => {
      createdOrDeparture(ctx, await profiledUser(ctx));
      const id = createdOrDeparture(ctx, await createUser(ctx, 'patch-taker'));
      return judge(ctx.v1, 'updateUser', await patchUser(ctx, id, { email: email(ctx, 'profiled') }), [400]);
    },
  },
  {
    id: 'v1.users.patch.optional-kept',
    area: area('users'),
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
        email: email(ctx, 'patch-kept'),
        occupation: 'Conformance',
      });
      const verdict = judge(ctx.v1, 'updateUser', patched, [200]);
      if (!isPass(verdict)) return verdict;
      // The ban answers the user's name and flag (seed 001, POST /users/blocked): the only v1 read.
      const banned = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
      const read = judge(ctx.v1, 'blockUser', banned, [200]);
      if (!isPass(read)) return read;
      const user = obj(banned.body);
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
    area: area('users'),
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
        email: email(ctx, 'patch-optional'),
        name,
        password: 'Another-456789',
        roleAlias: roleOf(ctx),
        fromApi: false,
      });
      const verdict = judge(ctx.v1, 'updateUser', patched, [200]);
      if (!isPass(verdict)) return verdict;
      // The ban answers the user's name and flag (seed 001, POST /users/blocked): the only v1 read.
      const banned = await ctx.v1.call('blockUser', { headers: ctx.v1Headers(), body: { id } });
      const read = judge(ctx.v1, 'blockUser', banned, [200]);
      if (!isPass(read)) return read;
      const user = obj(banned.body);
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
    area: area('users'),
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
      const defined = judge(ctx.v1, 'createUserAttributes', created, [200]);
      if (!isPass(defined)) return defined;
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
        const made = judge(ctx.v1, 'createUserAttributes', raised, [200]);
        if (!isPass(made)) return made;
        const partial = await patchUser(ctx, id, {
          email: email(ctx, 'patch-set'),
          attributes: { [other.apiId]: 'c' },
        });
        if (partial.status < 300)
          return fail(
            `a PATCH whose attributes leave out the required ${required.apiId} was accepted: the set did not replace the stored values`,
            evidenceOf(partial, '400: the complete set lacks a required attribute'),
          );
        const refused = judge(ctx.v1, 'updateUser', partial, [400]);
        if (!isPass(refused)) return refused;
        const whole = await patchUser(ctx, id, {
          email: email(ctx, 'patch-set'),
          attributes: { [other.apiId]: 'c', [required.apiId]: 'd' },
        });
        const accepted = judge(ctx.v1, 'updateUser', whole, [200]);
        return isPass(accepted)
          ? pass()
          : { ...accepted, reason: `the complete set was refused too: ${accepted.reason}` };
      } finally {
        // Not required a moment longer than the check needs: users made meanwhile would need it.
        await neutralise(ctx, 'users', required);
      }
    },
  },
  {
    id: 'v1.users.ban.expert-courses',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.ban-expert-courses', '001/users.ban-expert', '001/errors.shape'],
    title:
      "an expert's refused ban lists each blocking course with id, name, expertHomeworks and expertClassworks",
    needs: { ...needs, config: ['expertUserId'] },
    run: async (ctx) => {
      const e = await expertBan(ctx);
      const verdict = judge(ctx.v1, 'blockUser', e, [422]);
      if (!isPass(verdict)) return verdict;
      const courses = list(obj(obj(e.body).data).courses);
      if (!courses.length) return fail('data.courses is empty', evidenceOf(e, 'the blocking courses'));
      const fields = ['id', 'name', 'expertHomeworks', 'expertClassworks'];
      const lacking = courses.findIndex((c) => fields.some((f) => !(f in c)));
      if (lacking >= 0)
        return fail(
          `blocking course ${lacking + 1} lacks ${fields.filter((f) => !(f in (courses[lacking] as Obj))).join(', ')}`,
          evidenceOf(e, `data.courses[] with ${fields.join(', ')}`),
        );
      // Each is a course of the platform, by the name it has there.
      for (const c of courses.slice(0, 3)) {
        const detail = await ctx.v1.call('getCourse', {
          params: { courseId: c.id as number },
          headers: ctx.v1Headers(),
        });
        const read = judge(ctx.v1, 'getCourse', detail, [200]);
        if (!isPass(read)) return { ...read, reason: `blocking course ${c.id}: ${read.reason}` };
        if (obj(detail.body).name !== c.name)
          return fail(
            `blocking course ${c.id} is named ${show(c.name)}, the course is ${show(obj(detail.body).name)}`,
            evidenceOf(detail, `name ${show(c.name)}`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.users.ban.expert-stays-active',
    area: area('users'),
    level: 'MUST',
    rules: ['001/users.ban-expert-stays-active'],
    title: 'an expert whose ban was refused with 422 stays active (get_user status)',
    needs: { ...needs, config: ['expertUserId'], mcpScope: 'read' },
    run: async (ctx) => {
      const e = await expertBan(ctx);
      const verdict = judge(ctx.v1, 'blockUser', e, [422]);
      if (!isPass(verdict)) return verdict;
      const expert = ctx.config.expertUserId as string;
      const courses = list(obj(obj(e.body).data).courses).map((c) => c.id as number);
      const mail = await emailOf(ctx, expert, courses);
      if (!mail)
        throw new Incomplete(
          `the e-mail of ${expert} is in none of the v1 lists that show users (statistics, the blocking courses' assignments), so get_user cannot be asked`,
        );
      const { detail, status } = await v2User(ctx, mail);
      if (status === 'active') return pass();
      if (status === 'banned')
        return fail(
          `the ban of ${expert} was refused with 422, but get_user says status banned`,
          evidenceOf(detail, 'status active'),
        );
      throw new Incomplete(
        `get_user says status ${show(status)}, which is neither of the kit's active or banned`,
      );
    },
  },

  // --- Groups ---
  {
    id: 'v1.groups.attributes-by-name',
    area: area('groups'),
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
      const verdict = judge(ctx.v1, 'updateGroup', e, [200]);
      if (!isPass(verdict)) return verdict;
      const want = `attributes["${attribute.name}"] "EMEA"`;
      const answered = obj(obj(e.body).attributes)[attribute.name];
      if (answered !== 'EMEA')
        return fail(
          `the updated group's attributes["${attribute.name}"] is ${show(answered)}`,
          evidenceOf(e, want),
        );
      const stats = await statisticsOf(ctx, group.id);
      if (!isPass(stats.verdict)) return stats.verdict;
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
    area: area('groups'),
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
      const verdict = judge(ctx.v1, 'updateGroup', e, [400]);
      if (!isPass(verdict)) return verdict;
      const stats = await statisticsOf(ctx, group.id);
      if (!isPass(stats.verdict)) return stats.verdict;
      return obj(stats.body.group).name === group.name
        ? pass()
        : fail('the refused PATCH changed the group', evidenceOf(stats.e, `name ${group.name}`));
    },
  },
  {
    id: 'v1.groups.attribute-validation',
    area: area('groups'),
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
      const verdict = judge(ctx.v1, 'updateGroup', e, [400]);
      if (!isPass(verdict))
        return { ...verdict, reason: `"many" for the number attribute ${attribute.name}: ${verdict.reason}` };
      const key = `attributes.${attribute.name}`;
      return obj(obj(e.body).errors)[key]
        ? pass()
        : fail(`the 400 has no error keyed ${key}`, evidenceOf(e, `errors["${key}"]`));
    },
  },
  {
    id: 'v1.groups.statistics.members',
    area: area('groups'),
    level: 'MUST',
    rules: ['001/groups.statistics-users', '001/groups.statistics', '001/users.create-groups'],
    title: "a group's new member is listed without activity and without results as {id, name, email, role}",
    needs,
    run: async (ctx) => {
      const group = await createGroup(ctx, 'statistics');
      const id = createdOrDeparture(ctx, await createUser(ctx, 'counted', { groups: [group.id] }));
      const stats = await statisticsOf(ctx, group.id);
      if (!isPass(stats.verdict)) return stats.verdict;
      const want = { id, name: 'lmskit counted', email: email(ctx, 'counted'), role: roleOf(ctx) };
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
  {
    id: 'v1.groups.statistics.leaders',
    area: area('groups'),
    level: 'MUST',
    rules: ['001/groups.statistics-leaders', '001/groups.statistics', '001/groups.image'],
    title: "a group's leaders are {coursesCount, resultValue, user}, resultValue an average of results",
    needs: { apiKey: true, mcpScope: 'read' },
    run: async (ctx) => {
      const group = await groupWithLeaders(ctx);
      if (!isPass(group.verdict)) return group.verdict;
      return judgeLeaders(ctx, group.e, `group ${group.id}`);
    },
  },
  {
    id: 'v1.statistics.leader-fields',
    area: area('statistics'),
    level: 'MUST',
    rules: ['001/statistics.leader-fields'],
    title: 'each leader of GET /statistics has coursesCount, resultValue (an average, 0-100) and user',
    needs: { apiKey: true },
    run: async (ctx) => {
      const e = await ctx.v1.call('getStatistics', { headers: ctx.v1Headers() });
      const verdict = judge(ctx.v1, 'getStatistics', e, [200]);
      if (!isPass(verdict)) return verdict;
      return judgeLeaders(ctx, e, 'GET /statistics');
    },
  },

  // --- Assignments ---
  {
    id: 'v1.assignments.timestamps',
    area: area('assignments'),
    level: 'MUST',
    rules: ['001/assignments.timestamps', '001/conventions.timestamps'],
    title: 'an assignment has assignedAt, startedAt, deadlineAt and finishedAt, integer timestamps',
    needs,
    run: async (ctx) => {
      const { verdict, views } = await timedViews(ctx);
      if (!isPass(verdict)) return verdict;
      for (const { where, a, e } of views) {
        for (const stamp of STAMPS) {
          const set = stamp === 'assignedAt' || stamp === 'deadlineAt';
          if (!(stamp in a)) {
            if (set)
              return fail(`${where}: the assignment has no ${stamp}`, evidenceOf(e, STAMPS.join(', ')));
            // Not yet started or finished: what such a field shows is not shown; the kit sends null.
            ctx.v1.noteAssumed(
              [`${where}: ${stamp} is left out while it has no value, where the kit sends null`],
              evidenceOf(e, `${stamp}: null`),
            );
            continue;
          }
          const value = a[stamp];
          if (set ? !Number.isInteger(value) : value !== null && !Number.isInteger(value))
            return fail(
              `${where}: ${stamp} is ${show(value)}, not an integer timestamp`,
              evidenceOf(e, `${stamp} in Unix seconds`),
            );
        }
      }
      return pass();
    },
  },
  {
    id: 'v1.assignments.assign-at',
    area: area('assignments'),
    level: 'MUST',
    rules: ['001/assignments.assign-at'],
    title: 'the assignAt given is when the assignment starts: a timestamp of the assignment in both lists',
    needs,
    run: async (ctx) => {
      const { t, verdict, views } = await timedViews(ctx);
      if (!isPass(verdict)) return verdict;
      for (const { where, a, e } of views) {
        // Judged by value: the seed names `assignAt` in the request only; the kit shows it as assignedAt.
        const at = Object.keys(a).filter((k) => a[k] === t.assignAt);
        if (!at.length)
          return fail(
            `${where}: no timestamp of the assignment is the assignAt ${t.assignAt} it was given (${STAMPS.map((s) => `${s} ${show(a[s])}`).join(', ')})`,
            evidenceOf(e, `a timestamp ${t.assignAt}`),
          );
        if (!at.includes('assignedAt'))
          ctx.v1.noteAssumed(
            [
              `${where}: assignAt ${t.assignAt} is shown as ${at.join(', ')}, where the kit shows it as assignedAt`,
            ],
            evidenceOf(e, `assignedAt ${t.assignAt}`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.assignments.deadline',
    area: area('assignments'),
    level: 'MUST',
    rules: ['001/assignments.deadline'],
    title: "the deadlineAt given is the assignment's deadlineAt in the user's and the course's list",
    needs,
    run: async (ctx) => {
      const { t, verdict, views } = await timedViews(ctx);
      if (!isPass(verdict)) return verdict;
      const off = views.find((v) => v.a.deadlineAt !== t.deadlineAt);
      return off
        ? fail(
            `${off.where}: deadlineAt is ${show(off.a.deadlineAt)}, given ${t.deadlineAt}`,
            evidenceOf(off.e, `deadlineAt ${t.deadlineAt}`),
          )
        : pass();
    },
  },
  {
    id: 'v1.assignments.lists-agree',
    area: area('assignments'),
    level: 'MUST',
    rules: ['001/assignments.progress', '001/assignments.flags', '001/assignments.timestamps'],
    title: "an assignment reads the same in the course's list and in the user's list",
    needs: { apiKey: true },
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const theirs = await ctx.v1.call('listCourseAssignments', {
        params: { courseId },
        headers: ctx.v1Headers(),
      });
      const verdict = judge(ctx.v1, 'listCourseAssignments', theirs, [200]);
      if (!isPass(verdict)) return verdict;
      const assignments = list(obj(theirs.body).assignments);
      if (!assignments.length) throw new Incomplete(`course ${courseId} has no assignments to compare`);
      // Those with progress first: they tell most.
      const picked = [...assignments]
        .sort((x, y) => Number(y.isCourseStarted === true) - Number(x.isCourseStarted === true))
        .slice(0, 5);
      for (const b of picked) {
        const userId = obj(b.user).id;
        if (typeof userId !== 'string') continue;
        const mine = await ctx.v1.call('listUserAssignments', {
          params: { userId },
          headers: ctx.v1Headers(),
        });
        const read = judge(ctx.v1, 'listUserAssignments', mine, [200]);
        if (!isPass(read)) return read;
        const a = list(obj(mine.body).assignments).find((x) => obj(x.course).id === courseId);
        if (!a)
          return fail(
            `${userId} is in the assignments of course ${courseId}, but the course is not in theirs`,
            evidenceOf(mine, `an assignment of course ${courseId}`),
          );
        const field = SHARED.find((k) => k in a && k in b && a[k] !== b[k]);
        if (field)
          return fail(
            `the assignment of ${userId} to course ${courseId} has ${field} ${show(b[field])} in the course's list and ${show(a[field])} in the user's`,
            evidenceOf(theirs, `${field} ${show(a[field])}, as GET /users/${userId}/assignments says`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.assignments.assign-groups',
    area: area('assignments'),
    level: 'MUST',
    rules: ['001/assignments.assign-groups', '001/assignments.assign-response'],
    title: 'assigning a course to a group lists the group in the answer, and the group then has the course',
    needs,
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const group = await createGroup(ctx, 'assigned');
      const member = createdOrDeparture(ctx, await createUser(ctx, 'grouped', { groups: [group.id] }));
      const e = await ctx.v1.call('assignCourse', {
        params: { courseId },
        headers: ctx.v1Headers(),
        body: { groups: [group.id] },
      });
      const verdict = judge(ctx.v1, 'assignCourse', e, [200]);
      if (!isPass(verdict)) return verdict;
      const listed = list(obj(e.body).groups).find((g) => g.id === group.id);
      if (!listed || listed.name !== group.name)
        return fail(
          `the answer does not list group ${group.id} (${group.name}) as assigned`,
          evidenceOf(e, `groups with ${group.id}`),
        );
      // Read back: the group counts the course, or its member has it.
      const stats = await statisticsOf(ctx, group.id);
      if (!isPass(stats.verdict)) return stats.verdict;
      if ((obj(stats.body.group).coursesCount as number) >= 1) return pass();
      const mine = await ctx.v1.call('listUserAssignments', {
        params: { userId: member },
        headers: ctx.v1Headers(),
      });
      const read = judge(ctx.v1, 'listUserAssignments', mine, [200]);
      if (!isPass(read)) return read;
      return list(obj(mine.body).assignments).some((a) => obj(a.course).id === courseId)
        ? pass()
        : fail(
            `after assigning course ${courseId} to group ${group.id}, the group counts no course and its member does not have it`,
            evidenceOf(stats.e, 'group.coursesCount 1'),
          );
    },
  },
  {
    id: 'v1.assignments.assign-only-successful',
    area: area('assignments'),
    level: 'MUST',
    rules: ['001/assignments.assign-only-successful', '001/assignments.assign-response'],
    title: 'assigning to a known and an unknown user and group answers 200 listing only the known ones',
    needs,
    run: async (ctx) => {
      const courseId = await v1CourseId(ctx);
      const group = await createGroup(ctx, 'partly');
      const id = createdOrDeparture(ctx, await createUser(ctx, 'partly'));
      const nobody = `nobody${ctx.runId}`;
      const e = await ctx.v1.call('assignCourse', {
        params: { courseId },
        headers: ctx.v1Headers(),
        body: { users: [id, nobody], groups: [group.id, UNKNOWN_ID] },
      });
      const verdict = judge(ctx.v1, 'assignCourse', e, [200]);
      if (!isPass(verdict)) return verdict;
      const users = list(obj(e.body).users).map((u) => u.id);
      const groups = list(obj(e.body).groups).map((g) => g.id);
      return users.join() === id && groups.join() === String(group.id)
        ? pass()
        : fail(
            `the answer lists users ${show(users)} and groups ${show(groups)}; assigned were only ${id} and ${group.id}`,
            evidenceOf(e, `users [${id}], groups [${group.id}]`),
          );
    },
  },

  // --- Webhook events ---
  {
    id: 'v1.webhooks.user-created.body',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.user-created-body', '001/webhooks.type-names', '001/webhooks.user-created'],
    title:
      'the user.created event is User/Created with the user, fromApi and userAttributes {apiId, name, type, value}',
    needs,
    run: async (ctx) => {
      const { defs, values } = await sampleValues(ctx, [1, 6]);
      const made = await createUser(ctx, 'evented', { attributes: values });
      const id = createdOrDeparture(ctx, made);
      const e = await lastEvent(ctx, 'user.created');
      const verdict = judgeEvent(ctx, e, 'user.created', 'UserCreatedEvent');
      if (!isPass(verdict)) return verdict;
      const event = obj(e.body);
      const user = obj(obj(event.body).user);
      const want = `type User/Created, body.user ${id} with fromApi and userAttributes`;
      if (event.type !== 'User/Created')
        return fail(`the user.created event has type ${show(event.type)}`, evidenceOf(e, want));
      if (user.id !== id || user.email !== email(ctx, 'evented'))
        return fail("the last user.created event is not the new user's", evidenceOf(e, want));
      if (typeof user.fromApi !== 'boolean' || obj(user.role).alias !== roleOf(ctx))
        return fail(
          `the event's user has fromApi ${show(user.fromApi)}, role ${show(user.role)}`,
          evidenceOf(e, `fromApi true, role {alias: ${roleOf(ctx)}}`),
        );
      const attributes = list(user.userAttributes);
      for (const d of defs) {
        const a = attributes.find((x) => x.apiId === d.apiId);
        const problems = a
          ? [
              ...(a.name === d.name ? [] : [`name ${show(a.name)}`]),
              ...(a.type === d.type ? [] : [`type ${show(a.type)}`]),
              ...valueProblems(d.sentType, a.value),
            ]
          : ['missing'];
        if (problems.length)
          return fail(
            `userAttributes ${d.apiId}: ${problems.join('; ')}`,
            evidenceOf(
              e,
              `{apiId: ${d.apiId}, name: ${d.name}, type: ${d.type}, value: ${show(values[d.apiId])}}`,
            ),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.webhooks.group-user-created.body',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.group-user-created-body', '001/webhooks.type-names', '001/groups.image'],
    title:
      'the group.user.created event is Group/User/Created with the user and the group {id, name, description}',
    needs,
    run: async (ctx) => {
      const description = 'Made by the lmskit conformance suite';
      const group = await createGroup(ctx, 'joined', { description });
      const id = createdOrDeparture(ctx, await createUser(ctx, 'joiner', { groups: [group.id] }));
      const e = await lastEvent(ctx, 'group.user.created');
      const verdict = judgeEvent(ctx, e, 'group.user.created', 'GroupUserCreatedEvent');
      if (!isPass(verdict)) return verdict;
      const event = obj(e.body);
      const body = obj(event.body);
      const [user, g] = [obj(body.user), obj(body.group)];
      const want = `type Group/User/Created, user ${id}, group {id: ${group.id}, name: ${group.name}, description: ${description}}`;
      if (event.type !== 'Group/User/Created')
        return fail(`the group.user.created event has type ${show(event.type)}`, evidenceOf(e, want));
      if (user.id !== id || user.email !== email(ctx, 'joiner'))
        return fail("the last group.user.created event is not the new member's", evidenceOf(e, want));
      return g.id === group.id && g.name === group.name && g.description === description
        ? pass()
        : fail(`the event's group is ${JSON.stringify(g)}`, evidenceOf(e, want));
    },
  },
  {
    id: 'v1.webhooks.case-sensitive',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.case-sensitive', '001/webhooks.dot-notation'],
    title:
      'GET /webhook/USER.CREATED/last and /webhook/User.Created/last do not answer the user.created event',
    needs,
    run: async (ctx) => {
      // An event to find by its exact name, so that a miss by the other spellings means something.
      createdOrDeparture(ctx, await createUser(ctx, 'cased'));
      const exact = await lastEvent(ctx, 'user.created');
      const verdict = judge(ctx.v1, 'getLastWebhookEvent', exact, [200]);
      if (!isPass(verdict))
        return { ...verdict, reason: `user.created, right after creating a user: ${verdict.reason}` };
      for (const name of ['USER.CREATED', 'User.Created']) {
        const e = await lastEvent(ctx, name);
        if (e.status < 300)
          return fail(
            `GET /webhook/${name}/last answered ${e.status}: the event name is not case-sensitive`,
            evidenceOf(e, `404: ${name} is not user.created`),
          );
        const refused = judge(ctx.v1, 'getLastWebhookEvent', e, [404, 400]);
        if (!isPass(refused)) return { ...refused, reason: `${name}: ${refused.reason}` };
      }
      return pass();
    },
  },
  {
    id: 'v1.webhooks.retention',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.retention'],
    title: 'no last event of any type is older than 30 days by the deployment’s own clock',
    needs,
    run: async (ctx) => {
      // The deployment's now: when it says the user just made was created. An older event cannot be
      // made, so only what is returned is judged: nothing from before the last 30 days.
      createdOrDeparture(ctx, await createUser(ctx, 'clock'));
      const made = await lastEvent(ctx, 'user.created');
      const verdict = judge(ctx.v1, 'getLastWebhookEvent', made, [200]);
      if (!isPass(verdict)) return verdict;
      const event = obj(made.body);
      if (obj(obj(event.body).user).email !== email(ctx, 'clock'))
        return fail(
          "the last user.created event is not the new user's: the deployment's clock cannot be read",
          evidenceOf(made, `body.user.email ${email(ctx, 'clock')}`),
        );
      const now = event.occuredAt as number;
      for (const type of ['group.user.created', 'course.finished', 'course.published']) {
        const e = await lastEvent(ctx, type);
        const read = judge(ctx.v1, 'getLastWebhookEvent', e, [200, 404]);
        if (!isPass(read)) return read;
        const at = obj(e.body).occuredAt as number;
        // A minute of slack: the two answers are not read at the same instant.
        if (e.status === 200 && at < now - 30 * DAY - 60)
          return fail(
            `the last ${type} event occurred ${((now - at) / DAY).toFixed(1)} days before the user just made: older than 30 days`,
            evidenceOf(e, `occuredAt ≥ ${now - 30 * DAY}, or 404`),
          );
      }
      return pass();
    },
  },
  {
    id: 'v1.webhooks.course-finished.body',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.course-finished-body'],
    title: 'the last course.finished event has user, course and resultValue 0-100',
    needs: { apiKey: true },
    run: async (ctx) => {
      const e = await lastEvent(ctx, 'course.finished');
      if (e.status === 404) {
        const none = judge(ctx.v1, 'getLastWebhookEvent', e, [404]);
        if (!isPass(none)) return none;
        throw new Incomplete(
          'no course.finished event in the last 30 days: learners finish courses in the platform itself, which neither API can do, so the body can be judged only once one has',
        );
      }
      const verdict = judgeEvent(ctx, e, 'course.finished', 'CourseFinishedEvent');
      if (!isPass(verdict)) return verdict;
      // The contract assumed what `user` and `course` hold; that the body has them, the seed says.
      const body = obj(obj(e.body).body);
      const lacking = ['user', 'course'].filter((k) => body[k] === undefined || body[k] === null);
      return lacking.length
        ? fail(
            `the course.finished body has no ${lacking.join(' and ')}`,
            evidenceOf(e, 'user, course, resultValue'),
          )
        : pass();
    },
  },
  {
    id: 'v1.webhooks.course-published',
    area: area('webhooks'),
    level: 'MUST',
    rules: ['001/webhooks.course-published'],
    title: 'GET /webhook/course.published/last answers the last course.published event, or 404 when none',
    needs: { apiKey: true },
    run: async (ctx) => {
      const e = await lastEvent(ctx, 'course.published');
      const verdict = judge(ctx.v1, 'getLastWebhookEvent', e, [200, 404]);
      if (!isPass(verdict) || e.status !== 200) return verdict;
      // Its type and body are the kit's choice (`Course/Published`, the course): a SHOULD.
      const { documented, assumed } = eventProblems(e.body, 'CoursePublishedEvent');
      const all = [...documented, ...assumed];
      ctx.v1.noteAssumed(
        all.map((p) => `GET /webhook/course.published/last (CoursePublishedEvent): ${p}`),
        evidenceOf(e, 'the course.published event as openapi/v1 CoursePublishedEvent', all),
      );
      return pass();
    },
  },
];
