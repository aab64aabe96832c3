// v1 webhook events (seed 001, "Endpoints > Webhook last event", "Events"): user.created and
// group.user.created carry the body the seed gives (the user with userAttributes; the group), in
// slash-form types (User/Created); the event name is case-sensitive; no event older than 30 days is
// returned; course.finished and course.published answer their last event or 404. An event is judged
// against the contract's schema of its type. That creating a user records these events at all is
// checked with the creation (./users-create.ts). Runs with --allow-writes (course.finished and
// course.published read only).
import { formatErrors, SpecSchemas } from '../../../lib/openapi-schemas.ts';
import { type Context, evidenceOf, fail, loadContract, pass } from '../../context.ts';
import { documentedSpec } from '../../documented.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check, Verdict } from '../../types.ts';
import { list, obj, show } from '../common/body.ts';
import {
  createdOrDeparture,
  createGroup,
  createUser,
  DAY,
  emailFor,
  roleOf,
  sampleValues,
  valueProblems,
} from '../common/fixtures.ts';
import { judge, mustPass } from '../common/judge.ts';

const needs = { apiKey: true, writes: true };

/** The last event of a type (GET /webhook/{event}/last), unjudged. */
export const lastEvent = (ctx: Context, event: string) =>
  ctx.v1.call('getLastWebhookEvent', { params: { event }, headers: ctx.v1Headers() });

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

/** The last event of a type, judged as the envelope and as that type's event (seed 001, Events). */
function judgeEvent(ctx: Context, e: Exchange, event: string, schema: string): Verdict {
  mustPass(judge(ctx.v1, 'getLastWebhookEvent', e, [200]));
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

export const v1WebhookChecks: Check[] = [
  {
    id: 'v1.webhooks.user-created.body',
    area: 'v1.webhooks',
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
      mustPass(judgeEvent(ctx, e, 'user.created', 'UserCreatedEvent'));
      const event = obj(e.body);
      const user = obj(obj(event.body).user);
      const want = `type User/Created, body.user ${id} with fromApi and userAttributes`;
      if (event.type !== 'User/Created')
        return fail(`the user.created event has type ${show(event.type)}`, evidenceOf(e, want));
      if (user.id !== id || user.email !== emailFor(ctx, 'evented'))
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
    area: 'v1.webhooks',
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
      mustPass(judgeEvent(ctx, e, 'group.user.created', 'GroupUserCreatedEvent'));
      const event = obj(e.body);
      const body = obj(event.body);
      const [user, g] = [obj(body.user), obj(body.group)];
      const want = `type Group/User/Created, user ${id}, group {id: ${group.id}, name: ${group.name}, description: ${description}}`;
      if (event.type !== 'Group/User/Created')
        return fail(`the group.user.created event has type ${show(event.type)}`, evidenceOf(e, want));
      if (user.id !== id || user.email !== emailFor(ctx, 'joiner'))
        return fail("the last group.user.created event is not the new member's", evidenceOf(e, want));
      return g.id === group.id && g.name === group.name && g.description === description
        ? pass()
        : fail(`the event's group is ${JSON.stringify(g)}`, evidenceOf(e, want));
    },
  },
  {
    id: 'v1.webhooks.case-sensitive',
    area: 'v1.webhooks',
    level: 'MUST',
    rules: ['001/webhooks.case-sensitive', '001/webhooks.dot-notation'],
    title:
      'GET /webhook/USER.CREATED/last and /webhook/User.Created/last do not answer the user.created event',
    needs,
    run: async (ctx) => {
      // An event to find by its exact name, so that a miss by the other spellings means something.
      createdOrDeparture(ctx, await createUser(ctx, 'cased'));
      const exact = await lastEvent(ctx, 'user.created');
      mustPass(
        judge(ctx.v1, 'getLastWebhookEvent', exact, [200]),
        'user.created, right after creating a user',
      );
      for (const name of ['USER.CREATED', 'User.Created']) {
        const e = await lastEvent(ctx, name);
        if (e.status < 300)
          return fail(
            `GET /webhook/${name}/last answered ${e.status}: the event name is not case-sensitive`,
            evidenceOf(e, `404: ${name} is not user.created`),
          );
        mustPass(judge(ctx.v1, 'getLastWebhookEvent', e, [404, 400]), name);
      }
      return pass();
    },
  },
  {
    id: 'v1.webhooks.retention',
    area: 'v1.webhooks',
    level: 'MUST',
    rules: ['001/webhooks.retention'],
    title: 'no last event of any type is older than 30 days by the deployment’s own clock',
    needs,
    run: async (ctx) => {
      // The deployment's now: when it says the user just made was created. An older event cannot be
      // made, so only what is returned is judged: nothing from before the last 30 days.
      createdOrDeparture(ctx, await createUser(ctx, 'clock'));
      const made = await lastEvent(ctx, 'user.created');
      mustPass(judge(ctx.v1, 'getLastWebhookEvent', made, [200]));
      const event = obj(made.body);
      if (obj(obj(event.body).user).email !== emailFor(ctx, 'clock'))
        return fail(
          "the last user.created event is not the new user's: the deployment's clock cannot be read",
          evidenceOf(made, `body.user.email ${emailFor(ctx, 'clock')}`),
        );
      const now = event.occuredAt as number;
      for (const type of ['group.user.created', 'course.finished', 'course.published']) {
        const e = await lastEvent(ctx, type);
        mustPass(judge(ctx.v1, 'getLastWebhookEvent', e, [200, 404]));
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
    area: 'v1.webhooks',
    level: 'MUST',
    rules: ['001/webhooks.course-finished-body'],
    title: 'the last course.finished event has user, course and resultValue 0-100',
    needs: { apiKey: true },
    run: async (ctx) => {
      const e = await lastEvent(ctx, 'course.finished');
      if (e.status === 404) {
        mustPass(judge(ctx.v1, 'getLastWebhookEvent', e, [404]));
        throw new Incomplete(
          'no course.finished event in the last 30 days: learners finish courses in the platform itself, which neither API can do, so the body can be judged only once one has',
        );
      }
      mustPass(judgeEvent(ctx, e, 'course.finished', 'CourseFinishedEvent'));
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
    area: 'v1.webhooks',
    level: 'MUST',
    rules: ['001/webhooks.course-published'],
    title: 'GET /webhook/course.published/last answers the last course.published event, or 404 when none',
    needs: { apiKey: true },
    run: async (ctx) => {
      const e = await lastEvent(ctx, 'course.published');
      mustPass(judge(ctx.v1, 'getLastWebhookEvent', e, [200, 404]));
      if (e.status !== 200) return pass();
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
