// v1 custom attribute values of users (seed 001, "Resources > Custom attribute", Type rules): values
// given at creation are answered keyed by apiId, a yes/no as a boolean, and kept (read back from the
// user.created event); a text of 256 characters, a date not in ISO format and a number that is not
// numeric are refused with 400. Runs with --allow-writes.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Check, Verdict } from '../../types.ts';
import { list, obj, show } from '../common/body.ts';
import {
  attributeOf,
  createUser,
  definition,
  emailFor,
  firstOf,
  sampleValues,
  upsert,
  valueProblems,
} from '../common/fixtures.ts';
import { judge, mustPass } from '../common/judge.ts';
import { lastEvent } from './webhooks.ts';

const needs = { apiKey: true, writes: true };

/** A user made with a value of a type refused with 400 (seed 001, Type rules). */
async function valueRefused(ctx: Context, tag: string, type: number, value: unknown): Promise<Verdict> {
  const def = await attributeOf(ctx, 'users', type);
  const { e } = await createUser(ctx, tag, { attributes: { [def.apiId]: value } });
  mustPass(judge(ctx.v1, 'createUser', e, [400]), `a user with ${show(value)} for a type ${type} attribute`);
  return pass();
}

export const v1AttributeValueChecks: Check[] = [
  {
    id: 'v1.attributes.text-255',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.text-255', '001/errors.shape'],
    title: 'a user whose text attribute value has 256 characters is refused with 400',
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_text`;
      const created = await upsert(ctx, 'users', [
        definition(ctx, 'text', { apiId, type: 1, isEditable: false }),
      ]);
      mustPass(judge(ctx.v1, 'createUserAttributes', created, [200]));
      const key = firstOf(created)?.apiId ?? apiId;
      const { e } = await createUser(ctx, 'long-text', { attributes: { [key]: 'x'.repeat(256) } });
      return judge(ctx.v1, 'createUser', e, [400]);
    },
  },
  {
    id: 'v1.users.attributes',
    area: 'v1.users',
    level: 'MUST',
    rules: ['001/users.attributes', '001/attributes.yes-no-boolean'],
    title:
      'attribute values given at creation are answered keyed by apiId as given, a yes/no as a boolean, and kept',
    needs,
    run: async (ctx) => {
      const { defs, values } = await sampleValues(ctx);
      const made = await createUser(ctx, 'valued', { attributes: values });
      mustPass(judge(ctx.v1, 'createUser', made.e, [201]));
      const answered = obj(obj(made.e.body).attributes);
      const problems = defs.flatMap((d) => valueProblems(d.sentType, answered[d.apiId]));
      if (problems.length)
        return fail(
          `the new user's attributes: ${problems.join('; ')}`,
          evidenceOf(made.e, `attributes ${JSON.stringify(values)}`),
        );
      // Read back: the user.created event carries the stored values (seed 001, Events: userAttributes).
      const e = await lastEvent(ctx, 'user.created');
      mustPass(judge(ctx.v1, 'getLastWebhookEvent', e, [200]));
      const user = obj(obj(obj(e.body).body).user);
      if (user.email !== emailFor(ctx, 'valued'))
        return fail(
          'the last user.created event is not the new user’s: the stored values cannot be read back',
          evidenceOf(e, `body.user.email ${emailFor(ctx, 'valued')}`),
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
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.date-iso', '001/errors.shape'],
    title: 'a user whose date attribute value is not an ISO date (01/03/2024) is refused with 400',
    needs,
    run: (ctx) => valueRefused(ctx, 'bad-date', 2, '01/03/2024'),
  },
  {
    id: 'v1.attributes.number-numeric',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.number-numeric', '001/errors.shape'],
    title: 'a user whose number attribute value is not numeric ("forty-two") is refused with 400',
    needs,
    run: (ctx) => valueRefused(ctx, 'bad-number', 8, 'forty-two'),
  },
];
