// The invariants a snapshot is checked for before it replaces the state (docs/mock.md, Durable state):
// every seed holds them, and each kind of breach is named as the first problem.
import { describe, expect, it } from 'vitest';
import { loadSeed, SEEDS } from '../seed/index.ts';
import { parseScale, scaleTenant } from '../seed/scale.ts';
import { VirtualClock } from './clock.ts';
import { Platform } from './platform.ts';
import { snapshotProblem } from './snapshot-check.ts';

const snapshotOf = (tenants: ReturnType<typeof loadSeed>['tenants']) => {
  const p = new Platform(new VirtualClock({ start: 0, frozen: true }), loadSeed);
  p.load({ now: 0, tenants });
  return JSON.parse(JSON.stringify(p.snapshot()));
};

type Json = any;
const demo = (): Json => snapshotOf(loadSeed('demo').tenants);

describe('snapshotProblem', () => {
  it.each(Object.keys(SEEDS))('finds none in the %s seed', (name) => {
    expect(snapshotProblem(snapshotOf(loadSeed(name).tenants))).toBeNull();
  });

  it('finds none in a scale seed', () => {
    expect(
      snapshotProblem(snapshotOf([scaleTenant(parseScale('users=2000,courses=20,assignments=5000'))])),
    ).toBeNull();
  });

  const cases: [string, (s: Json) => void, RegExp][] = [
    [
      'a user counter behind',
      (s) => (s.tenants.demo.seq.user = 1),
      /^tenant demo: users: id 2 is past the counter seq\.user \(1\)/,
    ],
    [
      'no counter at all for users',
      (s) => delete s.tenants.demo.seq.user,
      /users: id 1 is past the counter seq\.user \(0\)/,
    ],
    [
      'a counter that is no number',
      (s) => (s.tenants.demo.seq.user = 'many'),
      /the counter seq\.user is "many", not a whole number/,
    ],
    [
      'a group id used twice',
      (s) => (s.tenants.demo.groups[1].id = s.tenants.demo.groups[0].id),
      /groups: id \d+ is used twice/,
    ],
    [
      'an e-mail used twice, in another case',
      (s) => (s.tenants.demo.users[1].email = s.tenants.demo.users[0].email.toUpperCase()),
      /users: the e-mail .* is used twice \(ignoring case\)/,
    ],
    [
      'an apiId used twice',
      (s) => (s.tenants.demo.users[1].apiId = s.tenants.demo.users[0].apiId),
      /users: the apiId .* is used twice/,
    ],
    [
      'a course element past its counter',
      (s) => (s.tenants.demo.seq.element = 1),
      /course \d+: elements: id \d+ is past the counter seq\.element \(1\)/,
    ],
    [
      'a counter past the largest 32-bit id (a later create would make an id no path accepts)',
      (s) => (s.tenants.demo.seq.assignment = 2 ** 31),
      /^tenant demo: the counter seq\.assignment is 2147483648, not a whole number from 0 to 2147483647/,
    ],
    [
      'a counter past the safest integer, of a kind with no records',
      (s) => (s.tenants.demo.seq.receiver = 2 ** 53),
      /the counter seq\.receiver is 9007199254740992, not a whole number from 0 to 2147483647/,
    ],
    [
      'an event counter behind',
      (s) => (s.tenants.demo.seq.event = 0),
      /events: id \d+ is past the counter seq\.event \(0\)/,
    ],
    [
      'a user id that is no number',
      (s) => (s.tenants.demo.users[0].id = '1'),
      /users: a record's id is "1", not a whole number/,
    ],
    [
      'a receiver past its counter',
      (s) => {
        s.tenants.demo.receivers.push({
          id: 'wh_7',
          url: 'http://127.0.0.1:1/',
          secret: 's',
          events: null,
          createdAt: 0,
        });
        s.tenants.demo.seq.receiver = 2;
      },
      /receivers: id "wh_7" is past the counter seq\.receiver \(2\)/,
    ],
    [
      'two tenants with one site API key',
      (s) => {
        s.tenants.other = { ...structuredClone(s.tenants.demo), id: 'other' };
      },
      /^tenants: the site API key .* is used twice/,
    ],
    [
      'two user attributes with one apiId',
      (s) => {
        const user = s.tenants.demo.attributes.filter((a: Json) => a.scope === 'user');
        user[1].apiId = user[0].apiId;
      },
      /user attributes: the apiId .* is used twice/,
    ],
  ];
  it.each(cases)('names %s', (_, breach, problem) => {
    const snapshot = demo();
    breach(snapshot);
    expect(snapshotProblem(snapshot)).toMatch(problem);
  });

  it('lets a receiver id of another form pass: the counter never hands it out', () => {
    const snapshot = demo();
    snapshot.tenants.demo.receivers.push({
      id: 'custom',
      url: 'http://127.0.0.1:1/',
      secret: 's',
      events: null,
      createdAt: 0,
    });
    expect(snapshotProblem(snapshot)).toBeNull();
  });
});
