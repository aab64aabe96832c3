// v1 custom attribute definitions (seed 001, "Endpoints > Custom attributes", "Resources > Custom
// attribute"): definitions of each type 1-8 are made and answered with their type; a definition
// posted again is updated (groups' matched by apiId, users' by id), its type fixed, a choice's
// options changeable; the required fields, a choice without options, a type out of range and a
// position of 0 are refused with 400 keyed `attributes[0].<field>`, in the seed's words. Runs with
// --allow-writes; v1 cannot delete a definition, so the run's are left invisible and not required.
import { type Context, evidenceOf, fail, pass } from '../../context.ts';
import type { Check } from '../../types.ts';
import { type Obj, obj, show } from '../common/body.ts';
import {
  type Attribute,
  attributeSet,
  CHOICE_TYPES,
  definition,
  firstOf,
  neutralise,
  upsert,
  upsertOperation,
} from '../common/fixtures.ts';
import { contractCheck, judge, mustPass } from '../common/judge.ts';

const needs = { apiKey: true, writes: true };

/**
 * Definitions seed 001 refuses, by the field their 400 is keyed by, with the words of its message
 * ("name is required", "invalid attribute type", "options required for choice type attributes").
 */
const REFUSED = {
  name: {
    says: 'name is required',
    words: [/name/i, /required/i],
    item: (ctx: Context) => {
      const { name: _name, ...rest } = definition(ctx, 'nameless', { type: 1 });
      return rest;
    },
  },
  type: {
    says: 'invalid attribute type',
    words: [/invalid/i, /type/i],
    item: (ctx: Context) => definition(ctx, 'type nine', { type: 9 }),
  },
  extraData: {
    says: 'options required for choice type attributes',
    words: [/option/i, /required/i],
    item: (ctx: Context) => definition(ctx, 'no options', { type: 3 }),
  },
};
type RefusedField = keyof typeof REFUSED;

/** Seed 001: attribute validation answers 400 with the error keyed `attributes[0].<field>`. */
function attributeRefused(id: string, rule: string, title: string, field: RefusedField): Check {
  return contractCheck({
    id,
    area: 'v1.attributes',
    level: 'MUST',
    rules: [rule, '001/errors.shape', '001/errors.validation'],
    title,
    needs,
    api: 'v1',
    operationId: 'createGroupAttributes',
    expect: [400],
    request: async (ctx) => ({ headers: ctx.v1Headers(), body: [REFUSED[field].item(ctx)] }),
    verify: (_ctx, e) =>
      (e.body as { errors?: Record<string, unknown> })?.errors?.[`attributes[0].${field}`]
        ? pass()
        : fail(`no error keyed attributes[0].${field}`, evidenceOf(e, `errors["attributes[0].${field}"]`)),
  });
}

export const v1AttributeDefinitionChecks: Check[] = [
  {
    id: 'v1.attributes.groups.upsert',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.groups-upsert', '001/attributes.groups-response'],
    title: 'a group attribute posted again with the same apiId is updated, not created',
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_upsert`;
      const created = await upsert(ctx, 'groups', [definition(ctx, 'upsert', { apiId, type: 1 })]);
      mustPass(judge(ctx.v1, 'createGroupAttributes', created, [200]));
      const updated = await upsert(ctx, 'groups', [definition(ctx, 'upsert renamed', { apiId, type: 1 })]);
      mustPass(judge(ctx.v1, 'createGroupAttributes', updated, [200]));
      const [a, b] = [firstOf(created), firstOf(updated)];
      return a && b && a.id === b.id && b.name === `lmskit ${ctx.runId} upsert renamed` && b.apiId === apiId
        ? pass()
        : fail(
            `the second post with apiId ${apiId} did not update attribute ${a?.id} (answered id ${b?.id}, name ${b?.name})`,
            evidenceOf(updated, `attribute ${a?.id} with the new name`),
          );
    },
  },
  {
    id: 'v1.attributes.groups.type-change-refused',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.type-fixed', '001/errors.shape'],
    title: 'posting a group attribute with the same apiId and another type is refused with 400',
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_type`;
      const created = await upsert(ctx, 'groups', [definition(ctx, 'type', { apiId, type: 1 })]);
      mustPass(judge(ctx.v1, 'createGroupAttributes', created, [200]));
      return judge(
        ctx.v1,
        'createGroupAttributes',
        await upsert(ctx, 'groups', [definition(ctx, 'type', { apiId, type: 8 })]),
        [400],
      );
    },
  },
  {
    id: 'v1.attributes.groups.options-modifiable',
    area: 'v1.attributes',
    level: 'MUST',
    rules: [
      '001/attributes.options-modifiable',
      '001/attributes.option-fields',
      '001/attributes.groups-response',
    ],
    title: "a choice attribute's options can be changed: a second option is added",
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_choice`;
      const option = (position: number, value: string) => ({ position, value });
      const created = await upsert(ctx, 'groups', [
        definition(ctx, 'choice', { apiId, type: 3, extraData: [option(1, 'Red')] }),
      ]);
      mustPass(judge(ctx.v1, 'createGroupAttributes', created, [200]));
      const updated = await upsert(ctx, 'groups', [
        definition(ctx, 'choice', { apiId, type: 3, extraData: [option(1, 'Red'), option(2, 'Blue')] }),
      ]);
      mustPass(judge(ctx.v1, 'createGroupAttributes', updated, [200]));
      const values = (firstOf(updated)?.extraData ?? []).map((o) => o.value).sort();
      return values.join() === 'Blue,Red'
        ? pass()
        : fail(
            `the options are ${values.join(', ') || 'none'} after adding Blue`,
            evidenceOf(updated, 'options Red and Blue'),
          );
    },
  },
  attributeRefused(
    'v1.attributes.choice-needs-options',
    '001/attributes.choice-options',
    'a choice attribute without options is refused with 400, keyed attributes[0].extraData',
    'extraData',
  ),
  attributeRefused(
    'v1.attributes.name-required',
    '001/attributes.name-required',
    'an attribute without a name is refused with 400, keyed attributes[0].name',
    'name',
  ),
  attributeRefused(
    'v1.attributes.type-range',
    '001/attributes.type-range',
    'an attribute of type 9 is refused with 400, keyed attributes[0].type',
    'type',
  ),
  contractCheck({
    id: 'v1.attributes.position-positive',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.position-positive', '001/errors.shape'],
    title: 'an attribute at position 0 is refused with 400',
    needs,
    api: 'v1',
    operationId: 'createGroupAttributes',
    expect: [400],
    request: async (ctx) => ({
      headers: ctx.v1Headers(),
      body: [definition(ctx, 'position zero', { type: 1, position: 0 })],
    }),
  }),
  {
    id: 'v1.attributes.users.upsert',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.users-upsert', '001/attributes.users-response', '001/attributes.apiid-generated'],
    title: 'a user attribute posted again with its id is updated, and its type cannot change',
    needs,
    run: async (ctx) => {
      const base = definition(ctx, 'user attr', { type: 1, isEditable: false });
      const created = await upsert(ctx, 'users', [base]);
      mustPass(judge(ctx.v1, 'createUserAttributes', created, [200]));
      const id = firstOf(created)?.id;
      const updated = await upsert(ctx, 'users', [
        { ...base, id, name: `lmskit ${ctx.runId} user attr renamed` },
      ]);
      mustPass(judge(ctx.v1, 'createUserAttributes', updated, [200]));
      if (firstOf(updated)?.id !== id || firstOf(updated)?.name !== `lmskit ${ctx.runId} user attr renamed`)
        return fail(
          `posting attribute ${id} again did not update it`,
          evidenceOf(updated, `attribute ${id} renamed`),
        );
      return pass();
    },
  },
  {
    id: 'v1.attributes.users.type-change-refused',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.type-fixed', '001/errors.shape'],
    title: 'posting a user attribute with its id and another type is refused with 400',
    needs,
    run: async (ctx) => {
      const base = definition(ctx, 'user type', { type: 1, isEditable: false });
      const created = await upsert(ctx, 'users', [base]);
      mustPass(judge(ctx.v1, 'createUserAttributes', created, [200]));
      return judge(
        ctx.v1,
        'createUserAttributes',
        await upsert(ctx, 'users', [{ ...base, id: firstOf(created)?.id, type: 8 }]),
        [400],
      );
    },
  },
  {
    id: 'v1.attributes.users.apiid-unique',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.apiid-unique', '001/errors.shape'],
    title: "a new user attribute with another attribute's apiId is refused with 400",
    needs,
    run: async (ctx) => {
      const apiId = `${ctx.runId}_unique`;
      const created = await upsert(ctx, 'users', [
        definition(ctx, 'unique', { apiId, type: 1, isEditable: false }),
      ]);
      mustPass(judge(ctx.v1, 'createUserAttributes', created, [200]));
      return judge(
        ctx.v1,
        'createUserAttributes',
        await upsert(ctx, 'users', [definition(ctx, 'unique twin', { apiId, type: 1, isEditable: false })]),
        [400],
      );
    },
  },
  {
    id: 'v1.attributes.type-values',
    area: 'v1.attributes',
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
        mustPass(judge(ctx.v1, upsertOperation(scope), set.e, [200]));
        for (const item of set.sent) {
          const made = set.answered.find((a) => a?.apiId === item.apiId);
          const want = `type ${item.type}${CHOICE_TYPES.includes(item.type) ? ' with options Red, Blue' : ', extraData null'}`;
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
          if (CHOICE_TYPES.includes(item.type) ? options.join() !== 'Blue,Red' : made.extraData !== null)
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
    area: 'v1.attributes',
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
          mustPass(judge(ctx.v1, upsertOperation(scope), e, [400]), `a ${scope} attribute without ${field}`);
        }
      }
      return pass();
    },
  },
  {
    id: 'v1.attributes.error-messages',
    area: 'v1.attributes',
    level: 'MUST',
    rules: ['001/attributes.error-messages', '001/errors.validation'],
    title:
      'the refusals say "name is required", "invalid attribute type", "options required for choice type attributes"',
    needs,
    run: async (ctx) => {
      for (const [field, { says, words, item }] of Object.entries(REFUSED)) {
        const e = await upsert(ctx, 'groups', [item(ctx)]);
        const made = e.status < 300 ? firstOf(e) : undefined;
        if (made) ctx.cleanup(() => neutralise(ctx, 'groups', made));
        mustPass(judge(ctx.v1, 'createGroupAttributes', e, [400]), `"${says}"`);
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
];
