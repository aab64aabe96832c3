// Custom attribute definitions and values (seed 001, "Custom attribute (users and groups)" and
// "Custom attributes"): upsert rules, all-or-nothing validation, and the value type rules.
import { describe, expect, it } from 'vitest';
import { type AttributeInput, checkValues, definitionsOf, upsertAttributes } from './attributes.ts';
import { SITE_KEY } from './audit.ts';
import { DomainError, FieldErrors } from './errors.ts';
import type { AttributeType, AttributeValue } from './model.ts';
import { TenantState } from './tenant-state.ts';
import { createUser } from './users.ts';

const fresh = () => TenantState.empty('t', 'T', 'key');

const input = (over: Partial<AttributeInput> = {}): AttributeInput => ({
  name: 'Badge',
  type: 1,
  position: 1,
  isRequired: false,
  isVisible: true,
  isEditable: true,
  ...over,
});

const options = (...values: string[]) => values.map((value) => ({ value }));

function caught(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

/** The field errors checkValues collects for `values` (empty when the values are accepted). */
function problems(
  t: TenantState,
  scope: 'user' | 'group',
  values: Record<string, AttributeValue>,
): Record<string, string[]> {
  const errors = new FieldErrors();
  checkValues(t, scope, values, errors);
  return errors.empty ? {} : caught(() => errors.throwIfAny()).fields;
}

describe('upsertAttributes: creating definitions', () => {
  it('creates a definition with an id and a generated apiId when apiId is omitted (seed 001, Custom attribute: apiId generated when omitted)', () => {
    const t = fresh();
    const [def] = upsertAttributes(t, 'user', [input({ name: 'Badge' })]);
    expect(def).toMatchObject({ scope: 'user', name: 'Badge', type: 1, position: 1, extraData: null });
    expect(def?.id).toBeGreaterThan(0);
    expect(def?.apiId).toMatch(/\S/);
    expect(definitionsOf(t, 'user')).toEqual([def]);
    expect(definitionsOf(t, 'group')).toEqual([]);
  });

  it('keeps a provided apiId (seed 001, Custom attribute: apiId optional)', () => {
    const t = fresh();
    const [def] = upsertAttributes(t, 'group', [input({ apiId: 'region' })]);
    expect(def?.apiId).toBe('region');
  });

  it('gives every definition created without apiId a different apiId (seed 001, Custom attribute: apiId unique)', () => {
    const t = fresh();
    const defs = upsertAttributes(t, 'user', [input({ name: 'A' }), input({ name: 'B', position: 2 })]);
    expect(new Set(defs.map((d) => d.apiId)).size).toBe(2);
  });

  it.each<[string, AttributeType]>([
    ['single choice', 3],
    ['multiple choice', 4],
  ])(
    'stores the options of a %s definition with ids and positions (seed 001, Custom attribute: extraData)',
    (_, type) => {
      const t = fresh();
      const [def] = upsertAttributes(t, 'user', [input({ type, extraData: options('Red', 'Green') })]);
      expect(def?.extraData?.map((o) => [o.position, o.value])).toEqual([
        [1, 'Red'],
        [2, 'Green'],
      ]);
      const ids = def?.extraData?.map((o) => o.id) ?? [];
      expect(new Set(ids).size).toBe(2);
    },
  );

  it('answers extraData null for a definition that is not a choice type, even when options were sent (seed 001, Custom attribute: null in responses for other types)', () => {
    const t = fresh();
    const [def] = upsertAttributes(t, 'user', [input({ type: 1, extraData: options('ignored') })]);
    expect(def?.extraData).toBeNull();
  });
});

describe('upsertAttributes: choice types need options', () => {
  it.each<[string, AttributeType, AttributeInput['extraData']]>([
    ['single choice, extraData omitted', 3, undefined],
    ['single choice, extraData null', 3, null],
    ['single choice, no options', 3, []],
    ['multiple choice, extraData omitted', 4, undefined],
    ['multiple choice, no options', 4, []],
  ])(
    'refuses %s with an error on attributes[0].extraData (seed 001, Custom attributes: choice types need at least one option)',
    (_, type, extraData) => {
      const t = fresh();
      const error = caught(() => upsertAttributes(t, 'group', [input({ type, extraData })]));
      expect(error.kind).toBe('validation');
      expect(Object.keys(error.fields)).toEqual(['attributes[0].extraData']);
      expect(t.attributes.size).toBe(0);
    },
  );

  it('keys the error by the index of the offending definition (seed 001, Custom attributes: keys such as attributes[0].extraData)', () => {
    const t = fresh();
    const error = caught(() =>
      upsertAttributes(t, 'user', [input(), input({ name: 'Colour', type: 3, position: 2, extraData: [] })]),
    );
    expect(Object.keys(error.fields)).toEqual(['attributes[1].extraData']);
  });
});

describe('upsertAttributes: matching existing definitions', () => {
  it('updates a group attribute that has the same apiId instead of creating another (seed 001, Custom attributes: groups matched by apiId)', () => {
    const t = fresh();
    const [first] = upsertAttributes(t, 'group', [input({ name: 'Region', apiId: 'region' })]);
    const [second] = upsertAttributes(t, 'group', [
      input({ name: 'Sales region', apiId: 'region', position: 4, isRequired: true }),
    ]);
    expect(second?.id).toBe(first?.id);
    expect(definitionsOf(t, 'group')).toHaveLength(1);
    expect(definitionsOf(t, 'group')[0]).toMatchObject({
      name: 'Sales region',
      position: 4,
      isRequired: true,
    });
  });

  it('creates a new group attribute when no apiId is sent (seed 001, Custom attributes: groups matched by apiId)', () => {
    const t = fresh();
    upsertAttributes(t, 'group', [input({ name: 'Region' })]);
    upsertAttributes(t, 'group', [input({ name: 'Region 2' })]);
    expect(definitionsOf(t, 'group')).toHaveLength(2);
  });

  it('updates a user attribute that has the same id (seed 001, Custom attributes: users matched by id)', () => {
    const t = fresh();
    const [first] = upsertAttributes(t, 'user', [input({ name: 'Badge', apiId: 'badge' })]);
    const [second] = upsertAttributes(t, 'user', [
      input({ id: first?.id, name: 'Badge number', position: 3, isEditable: false }),
    ]);
    expect(second?.id).toBe(first?.id);
    expect(second).toMatchObject({ name: 'Badge number', apiId: 'badge', position: 3, isEditable: false });
    expect(definitionsOf(t, 'user')).toHaveLength(1);
  });

  it('does not match a user attribute by apiId: resending an existing apiId without the id is a clash (seed 001, Custom attributes: users matched by id; apiId unique)', () => {
    const t = fresh();
    upsertAttributes(t, 'user', [input({ apiId: 'badge' })]);
    const error = caught(() => upsertAttributes(t, 'user', [input({ apiId: 'badge' })]));
    expect(Object.keys(error.fields)).toEqual(['attributes[0].apiId']);
    expect(definitionsOf(t, 'user')).toHaveLength(1);
  });

  it('refuses an unknown user attribute id with an error keyed attributes[0].id (seed 001, Custom attributes: id optional to update an existing attribute)', () => {
    const t = fresh();
    const error = caught(() => upsertAttributes(t, 'user', [input({ id: 999 })]));
    expect(error.kind).toBe('validation');
    expect(Object.keys(error.fields)).toEqual(['attributes[0].id']);
    expect(t.attributes.size).toBe(0);
  });

  it.each<[string, 'user' | 'group']>([
    ['user', 'user'],
    ['group', 'group'],
  ])(
    'refuses to change the type of an existing %s attribute, keyed attributes[i].type (seed 001, Custom attribute: type cannot be changed)',
    (_, scope) => {
      const t = fresh();
      const [existing] = upsertAttributes(t, scope, [input({ apiId: 'size', type: 8 })]);
      const change = input({ id: scope === 'user' ? existing?.id : undefined, apiId: 'size', type: 1 });
      const error = caught(() => upsertAttributes(t, scope, [input({ name: 'Other', position: 2 }), change]));
      expect(Object.keys(error.fields)).toEqual(['attributes[1].type']);
      expect(definitionsOf(t, scope)).toHaveLength(1);
      expect(definitionsOf(t, scope)[0]?.type).toBe(8);
    },
  );

  it('lets the options of a choice attribute change; a kept value keeps its option id, a new value gets a new id, a missing one is dropped (seed 001, Custom attributes: options of choice types can be modified)', () => {
    const t = fresh();
    const [before] = upsertAttributes(t, 'group', [
      input({ apiId: 'region', type: 3, extraData: options('EMEA', 'APAC', 'LATAM') }),
    ]);
    const idOf = (value: string) => before?.extraData?.find((o) => o.value === value)?.id;
    const emea = idOf('EMEA');
    const apac = idOf('APAC');
    const [after] = upsertAttributes(t, 'group', [
      input({ apiId: 'region', type: 3, extraData: options('APAC', 'Americas', 'EMEA') }),
    ]);
    expect(after?.extraData?.map((o) => o.value)).toEqual(['APAC', 'Americas', 'EMEA']);
    expect(after?.extraData?.find((o) => o.value === 'APAC')?.id).toBe(apac);
    expect(after?.extraData?.find((o) => o.value === 'EMEA')?.id).toBe(emea);
    const americas = after?.extraData?.find((o) => o.value === 'Americas')?.id;
    expect([emea, apac, idOf('LATAM')]).not.toContain(americas);
    expect(after?.extraData?.map((o) => o.position)).toEqual([1, 2, 3]);
  });
});

describe('upsertAttributes: apiId is unique', () => {
  it('refuses an apiId that another definition already has (seed 001, Custom attribute: apiId must be unique when provided)', () => {
    const t = fresh();
    const [, note] = upsertAttributes(t, 'user', [
      input({ apiId: 'badge' }),
      input({ apiId: 'note', position: 2 }),
    ]);
    const error = caught(() => upsertAttributes(t, 'user', [input({ id: note?.id, apiId: 'badge' })]));
    expect(Object.keys(error.fields)).toEqual(['attributes[0].apiId']);
    expect(definitionsOf(t, 'user').map((d) => d.apiId)).toEqual(['badge', 'note']);
  });

  it('refuses the same apiId twice in one request (seed 001, Custom attribute: apiId must be unique)', () => {
    const t = fresh();
    const error = caught(() =>
      upsertAttributes(t, 'user', [input({ apiId: 'badge' }), input({ apiId: 'badge', position: 2 })]),
    );
    expect(Object.keys(error.fields)).toEqual(['attributes[1].apiId']);
    expect(t.attributes.size).toBe(0);
  });

  it('never generates an apiId that a client already gave another definition (seed 001, Custom attribute: apiId unique)', () => {
    const t = fresh();
    upsertAttributes(t, 'user', [input({ name: 'Chosen', apiId: 'user_attr_2' })]);
    upsertAttributes(t, 'user', [input({ name: 'Generated', position: 2 })]);
    const apiIds = definitionsOf(t, 'user').map((d) => d.apiId);
    expect(new Set(apiIds).size).toBe(apiIds.length);
  });
});

describe('upsertAttributes: all-or-nothing', () => {
  const seeded = () => {
    const t = fresh();
    upsertAttributes(t, 'group', [input({ apiId: 'region', type: 3, extraData: options('EMEA') })]);
    upsertAttributes(t, 'user', [input({ apiId: 'badge', type: 1 })]);
    return t;
  };
  const badgeId = (t: TenantState) => definitionsOf(t, 'user')[0]?.id;

  it.each<[string, 'user' | 'group', (t: TenantState) => AttributeInput[]]>([
    [
      'a valid group update followed by a missing option list',
      'group',
      () => [
        input({ apiId: 'region', type: 3, name: 'Renamed', extraData: options('EMEA', 'APAC') }),
        input({ apiId: 'colour', type: 4, position: 2, extraData: [] }),
      ],
    ],
    [
      'a new user attribute followed by an unknown id',
      'user',
      () => [input({ name: 'New one', apiId: 'fresh' }), input({ id: 12_345 })],
    ],
    [
      'a user update followed by a type change',
      'user',
      (t) => [input({ id: badgeId(t), name: 'Renamed', position: 9 }), input({ id: badgeId(t), type: 8 })],
    ],
    [
      'a new group attribute followed by a duplicate apiId',
      'group',
      () => [input({ name: 'New', apiId: 'new' }), input({ name: 'Dup', apiId: 'new', position: 2 })],
    ],
  ])(
    'changes nothing when any definition of the request fails: %s (seed 001, Custom attributes: validation failure 400)',
    (_, scope, inputs) => {
      const t = seeded();
      const before = JSON.stringify(t.toData());
      expect(() => upsertAttributes(t, scope, inputs(t))).toThrow(DomainError);
      expect(JSON.stringify(t.toData())).toBe(before);
    },
  );
});

describe('checkValues: the type rules', () => {
  // Every type of seed 001 as a user attribute, plus a user whose API id a user-choice value can name.
  const tenant = () => {
    const t = fresh();
    upsertAttributes(t, 'user', [
      input({ apiId: 'text', type: 1, position: 1 }),
      input({ apiId: 'date', type: 2, position: 2 }),
      input({ apiId: 'single', type: 3, position: 3, extraData: options('Sales', 'People') }),
      input({ apiId: 'multi', type: 4, position: 4, extraData: options('SQL', 'Python') }),
      input({ apiId: 'mentor', type: 5, position: 5 }),
      input({ apiId: 'remote', type: 6, position: 6 }),
      input({ apiId: 'link', type: 7, position: 7 }),
      input({ apiId: 'years', type: 8, position: 8 }),
    ]);
    createUser(
      t,
      SITE_KEY,
      { id: 'max', name: 'Max', email: 'max@x.example', password: 'password1', roleAlias: 'manager' },
      0,
    );
    return t;
  };

  it.each<[string, string, AttributeValue]>([
    ['text of 255 characters', 'text', 'x'.repeat(255)],
    ['text of 255 characters outside the BMP (510 UTF-16 units)', 'text', '🔥'.repeat(255)],
    ['empty text', 'text', ''],
    ['an ISO date', 'date', '2024-05-01'],
    ['an ISO date-time', 'date', '2024-05-01T10:30:00Z'],
    ['a single choice option', 'single', 'Sales'],
    ['several multiple choice options', 'multi', ['SQL', 'Python']],
    ['no multiple choice option', 'multi', []],
    ['the API id of a user', 'mentor', 'max'],
    ['true', 'remote', true],
    ['false', 'remote', false],
    ['an https link', 'link', 'https://example.com/profile?id=1'],
    ['an http link', 'link', 'http://example.com'],
    ['an integer', 'years', 3],
    ['a decimal', 'years', 2.5],
    ['zero', 'years', 0],
    ['null for an optional attribute', 'text', null],
  ])('accepts %s (seed 001, Custom attribute: type rules)', (_, key, value) => {
    expect(problems(tenant(), 'user', { [key]: value })).toEqual({});
  });

  it.each<[string, string, AttributeValue]>([
    ['text of 256 characters', 'text', 'x'.repeat(256)],
    ['text of 256 characters outside the BMP', 'text', '🔥'.repeat(256)],
    ['a number as text', 'text', 42],
    ['a date not in ISO format', 'date', '01.05.2024'],
    ['a month 13', 'date', '2024-13-01'],
    ['a word as a date', 'date', 'yesterday'],
    ['a value that is not an option', 'single', 'Marketing'],
    ['a list for a single choice', 'single', ['Sales']],
    ['an unknown option in a multiple choice', 'multi', ['SQL', 'Cobol']],
    ['a string for a multiple choice', 'multi', 'SQL'],
    ['an unknown user', 'mentor', 'ghost'],
    ['an e-mail instead of a user API id', 'mentor', 'max@x.example'],
    ['the string "true" for yes/no', 'remote', 'true'],
    ['1 for yes/no', 'remote', 1],
    ['an ftp link', 'link', 'ftp://example.com/file'],
    ['a link without scheme', 'link', 'example.com'],
    ['a numeric string', 'years', '3'],
    ['NaN', 'years', Number.NaN],
    ['Infinity', 'years', Number.POSITIVE_INFINITY],
  ])(
    'refuses %s with an error on attributes.<apiId> (seed 001, Custom attribute: type rules)',
    (_, key, value) => {
      expect(Object.keys(problems(tenant(), 'user', { [key]: value }))).toEqual([`attributes.${key}`]);
    },
  );

  it('refuses a calendar date that does not exist (seed 001, Custom attribute: date ISO format)', () => {
    expect(Object.keys(problems(tenant(), 'user', { date: '2024-02-30' }))).toEqual(['attributes.date']);
  });

  it('refuses a value for an attribute that does not exist (seed 001, Custom attribute: values keyed by apiId)', () => {
    expect(Object.keys(problems(tenant(), 'user', { nope: 'x' }))).toEqual(['attributes.nope']);
  });

  it('reports every bad value at once (seed 001, Errors: errors maps each field to its messages)', () => {
    const fields = problems(tenant(), 'user', { text: 'x'.repeat(300), years: 'many', remote: 'yes' });
    expect(Object.keys(fields).sort()).toEqual(['attributes.remote', 'attributes.text', 'attributes.years']);
  });
});

describe('checkValues: required attributes', () => {
  const tenant = () => {
    const t = fresh();
    upsertAttributes(t, 'user', [input({ apiId: 'badge', isRequired: true }), input({ apiId: 'note' })]);
    upsertAttributes(t, 'group', [input({ name: 'cost centre', apiId: 'cc', isRequired: true })]);
    return t;
  };

  it.each<[string, 'user' | 'group', Record<string, AttributeValue>, string[]]>([
    ['a user without the required attribute', 'user', { note: 'hi' }, ['attributes.badge']],
    ['a user with null for the required attribute', 'user', { badge: null }, ['attributes.badge']],
    ['a user with the required attribute', 'user', { badge: 'B-1' }, []],
    ['a group without the required attribute', 'group', {}, ['attributes.cost centre']],
    ['a group with the required attribute, keyed by name', 'group', { 'cost centre': 'CC-1' }, []],
    [
      'a group keyed by apiId instead of name',
      'group',
      { cc: 'CC-1' },
      ['attributes.cc', 'attributes.cost centre'],
    ],
  ])(
    '%s → errors %j (seed 001, Custom attribute: isRequired; Group: attributes keyed by name)',
    (_, scope, values, want) => {
      expect(Object.keys(problems(tenant(), scope, values)).sort()).toEqual([...want].sort());
    },
  );
});
