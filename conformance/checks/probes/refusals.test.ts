// The refusal probes come from the contract: a path id with a documented 404 gives a missing-id probe,
// one whose schema refuses a value and a documented 400 a malformed probe, an override wins; and
// every probe of the real contracts names all its path parameters.
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../lib/spec-walk.ts';
import { loadContract } from '../../api.ts';
import type { Context } from '../../context.ts';
import { UNKNOWN_ID } from '../common/discover.ts';
import type { Request } from '../common/judge.ts';
import { harmless } from './harmless.ts';
import { deriveRefusals, OVERRIDES, type Overrides, refusalsOf, refusedValue } from './refusals.ts';

const ctx = { runId: 'lmskittest' } as Context;
const error = { description: 'refused' };

/** A contract of one GET operation with one path parameter and the given responses. */
const fakeSpec = (param: Node, statuses: number[], operationId = 'getThing'): Node => ({
  openapi: '3.1.0',
  paths: {
    [`/things/{${param.name}}`]: {
      get: {
        operationId,
        parameters: [{ in: 'path', required: true, ...param }],
        responses: Object.fromEntries([200, ...statuses].map((s) => [String(s), error])),
      },
    },
  },
  components: {},
});

/**
 * The harmless request of the fake operations: `getNamed`, whose id is a string, names one no record
 * has (as ./harmless.ts does); the others name nothing, so what an integer id gets comes from its schema.
 */
const harmlessOf = (operationId: string) => (c: Context) =>
  (operationId === 'getNamed' ? { params: { name: `nobody${c.runId}` } } : {}) as Request;

const integerId = { name: 'thingId', schema: { type: 'integer', minimum: 1 } };
const noOverrides: Overrides = { 'not-found': {}, malformed: {} };

describe('a fake contract gives its refusal probes', () => {
  it.each(
    [
      {
        case: 'an integer path id with a 404: a missing-id probe, with an id that cannot exist',
        spec: fakeSpec(integerId, [404]),
        api: 'v1' as const,
        notFound: [{ what: 'an unknown thing', expect: [404], params: { thingId: UNKNOWN_ID } }],
        malformed: [],
      },
      {
        case: 'an integer path id with a 400 (v2): a malformed probe with a non-integer',
        spec: fakeSpec(integerId, [400]),
        api: 'v2' as const,
        notFound: [],
        malformed: [{ what: 'a thing id that is not an integer', expect: [400], params: { thingId: 'abc' } }],
      },
      {
        case: 'an integer path id with a 404 and a 400 (v1): both, the malformed id may be taken for an unknown one',
        spec: fakeSpec(integerId, [400, 404]),
        api: 'v1' as const,
        notFound: [{ what: 'an unknown thing', expect: [404], params: { thingId: UNKNOWN_ID } }],
        malformed: [
          { what: 'a thing id that is not an integer', expect: [400, 404], params: { thingId: 'abc' } },
        ],
      },
      {
        case: 'a string id with a pattern: the missing id of the harmless request, a value breaking the pattern',
        spec: fakeSpec(
          { name: 'name', schema: { type: 'string', pattern: '^[a-z]+$' } },
          [400, 404],
          'getNamed',
        ),
        api: 'v2' as const,
        notFound: [{ what: 'an unknown name', expect: [404], params: { name: 'nobodylmskittest' } }],
        malformed: [
          {
            what: 'a name that does not match its pattern',
            expect: [400],
            params: { name: 'no such value!' },
          },
        ],
      },
      {
        case: 'a string id whose bound the kit assumed: no value is malformed',
        spec: fakeSpec(
          { name: 'name', schema: { type: 'string', maxLength: 64, 'x-assumed': true } },
          [400, 404],
          'getNamed',
        ),
        api: 'v2' as const,
        notFound: [{ what: 'an unknown name', expect: [404], params: { name: 'nobodylmskittest' } }],
        malformed: [],
      },
      {
        case: 'a list of values, not a record: no missing id, a value outside the list',
        spec: fakeSpec({ name: 'scope', schema: { type: 'string', enum: ['a', 'b'] } }, [400, 404]),
        api: 'v2' as const,
        notFound: [],
        malformed: [
          { what: 'a scope that is not one of its 2 values', expect: [400], params: { scope: 'abc' } },
        ],
      },
      {
        case: 'no documented 404 or 400: no probe',
        spec: fakeSpec(integerId, []),
        api: 'v1' as const,
        notFound: [],
        malformed: [],
      },
    ].map((c) => [c.case, c] as const),
  )('%s', (_case, { spec, api, notFound, malformed }) => {
    const given = refusalsOf(spec, api, noOverrides, harmlessOf);
    const shown = (kind: 'not-found' | 'malformed') =>
      given[kind].map((r) => ({ what: r.what, expect: r.expect, params: r.request(ctx).params }));
    expect(shown('not-found')).toEqual(notFound);
    expect(shown('malformed')).toEqual(malformed);
  });

  it('an override wins: it changes what it names, keeps the rest, leaves a probe out, or adds one the contract does not give', () => {
    const spec = fakeSpec(integerId, [400, 404]);
    const got = refusalsOf(
      spec,
      'v1',
      {
        'not-found': { getThing: { rules: ['001/things.not-found'] } },
        malformed: { getThing: false },
      },
      harmlessOf,
    );
    expect(got['not-found'].map((r) => [r.what, r.expect, r.rules, r.request(ctx).params])).toEqual([
      ['an unknown thing', [404], ['001/things.not-found'], { thingId: UNKNOWN_ID }],
    ]);
    expect(got.malformed).toEqual([]);

    const body = { what: 'no thing', request: () => ({ body: {} }), expect: [400] };
    const added = refusalsOf(fakeSpec(integerId, [400]), 'v2', {
      'not-found': {},
      malformed: { getThing: body },
    });
    expect(added.malformed.map((r) => [r.what, r.request(ctx)])).toEqual([['no thing', { body: {} }]]);
  });

  it.each(
    [
      {
        case: 'an operation the contract lacks',
        overrides: { 'not-found': { getOther: { rules: [] } }, malformed: {} },
        says: /the not-found override of getOther \(OVERRIDES\.v1 in conformance\/checks\/probes\/refusals\.ts\) names an operation/,
      },
      {
        case: 'leaving out a probe the contract does not give',
        overrides: { 'not-found': {}, malformed: { getThing: false } },
        says: /the malformed override of getThing .* leaves out a probe the contract does not give/,
      },
      {
        case: 'an incomplete probe where the contract gives none',
        overrides: { 'not-found': {}, malformed: { getThing: { rules: [] } } },
        says: /the contract gives no probe .* needs what, request and expect/,
      },
    ].map((c) => [c.case, c] as const),
  )('an override of %s is an error naming its entry', (_case, { overrides, says }) => {
    expect(() => refusalsOf(fakeSpec(integerId, [404]), 'v1', overrides as Overrides, harmlessOf)).toThrow(
      says,
    );
  });
});

describe('refusedValue: a value the documented schema refuses', () => {
  it.each([
    [{ type: 'integer' }, 'abc'],
    [{ type: 'number' }, 'abc'],
    [{ type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)*$' }, 'no such value!'],
    [{ type: 'string', enum: ['abc', 'def'] }, 'no such value!'],
    [{ type: 'string', maxLength: 3 }, 'xxxx'],
    [{ type: 'string' }, undefined],
    [{ type: 'integer', 'x-assumed': true }, undefined],
  ])('%j: %s', (schema, value) => {
    expect(refusedValue(schema)?.value).toBe(value);
  });
});

describe('the probes of the real contracts', () => {
  it.each(['v1', 'v2'] as const)(
    '%s: every probe the contract gives names each path parameter of its operation (the harmless request names a string id)',
    (api) => {
      const spec = loadContract(api);
      const derived = deriveRefusals(spec, api, (id) => harmless(api, id));
      const problems: string[] = [];
      for (const kind of ['not-found', 'malformed'] as const) {
        for (const r of derived[kind]) {
          const names = Object.keys(r.request(ctx).params ?? {});
          const path = Object.entries(spec.paths as Record<string, Node>).find(([, item]) =>
            Object.values(item).some((op: Node) => op?.operationId === r.operationId),
          )?.[0];
          for (const name of [...(path ?? '').matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string))
            if (!names.includes(name))
              problems.push(
                `conformance/checks/probes/harmless.ts: HARMLESS.${api}.${r.operationId} names no ${name} (an id no record has)`,
              );
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it('a v1 read GET /groups/{groupId} with a documented 404 and 400 gets both probes with no entry in OVERRIDES', () => {
    const v1 = structuredClone(loadContract('v1'));
    // The path item PATCH /groups/{groupId} already has, with its groupId parameter (an integer).
    v1.paths['/groups/{groupId}'].get = {
      operationId: 'getGroup',
      responses: { 200: error, 400: error, 401: error, 404: error },
    };
    // Its harmless request, which tsc asks of ./harmless.ts (HARMLESS.v1.getGroup).
    const fromHarmless = (id: string) =>
      id === 'getGroup' ? () => ({ params: { groupId: UNKNOWN_ID } }) : harmless('v1', id);
    const got = refusalsOf(v1, 'v1', OVERRIDES.v1, fromHarmless);
    const probeOf = (kind: 'not-found' | 'malformed') => {
      const r = got[kind].find((x) => x.operationId === 'getGroup');
      return r && { what: r.what, expect: r.expect, rules: r.rules, params: r.request(ctx).params };
    };
    expect(probeOf('not-found')).toEqual({
      what: 'an unknown group',
      expect: [404],
      rules: undefined,
      params: { groupId: UNKNOWN_ID },
    });
    expect(probeOf('malformed')).toEqual({
      what: 'a group id that is not an integer',
      expect: [400, 404],
      rules: ['001/groups.id-integer'],
      params: { groupId: 'abc' },
    });
  });

  it('the overrides are applied without error, each entry to an operation of its contract', () => {
    expect(() => refusalsOf(loadContract('v1'), 'v1', OVERRIDES.v1)).not.toThrow();
    expect(() => refusalsOf(loadContract('v2'), 'v2', OVERRIDES.v2)).not.toThrow();
  });
});
