// Users (seed 001, "User", "Users", "User ban state"; seed 000, ban_user, unban_user,
// change_user_email), tested on the demo seed.
import { describe, expect, it } from 'vitest';
import { loadSeed } from '../seed/index.ts';
import { SITE_KEY } from './audit.ts';
import { VirtualClock } from './clock.ts';
import { DomainError } from './errors.ts';
import type { Group, User } from './model.ts';
import { Platform } from './platform.ts';
import type { TenantState } from './tenant-state.ts';
import {
  banUser,
  type CreateUserInput,
  changeEmail,
  createUser,
  unbanUser,
  updateUser,
  userByApiId,
} from './users.ts';

function demo() {
  const seed = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
  platform.load(seed);
  const t = platform.tenant('demo');
  return { t, now: platform.now() };
}

function caught(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

const user = (t: TenantState, apiId: string): User => userByApiId(t, apiId);
const groupNamed = (t: TenantState, name: string): Group => {
  const group = [...t.groups.values()].find((g) => g.name === name);
  if (!group) throw new Error(`no group ${name} in the demo seed`);
  return group;
};

const newUser = (over: Partial<CreateUserInput> = {}): CreateUserInput => ({
  name: 'Nora New',
  email: 'nora@demo.example',
  password: 'correct horse',
  roleAlias: 'learner',
  ...over,
});

describe('createUser', () => {
  it('generates an alphanumeric, unique API id when none is given (seed 001, Users: id optional, generated when omitted)', () => {
    const { t, now } = demo();
    const created = createUser(t, SITE_KEY, newUser(), now);
    expect(created.apiId).toMatch(/^[A-Za-z0-9]+$/);
    expect(t.userByApiId(created.apiId)).toBe(created);
    expect([...t.users.values()].filter((u) => u.apiId === created.apiId)).toHaveLength(1);
  });

  it('does not hand out a generated API id that a client already chose (seed 001, User: id unique)', () => {
    const { t, now } = demo();
    // The next user's integer id; a client takes the API id the generator would derive from it.
    const nextId = (t.seq.user ?? 0) + 2;
    const chosen = createUser(t, SITE_KEY, newUser({ id: `u${nextId}`, email: 'a@x.example' }), now);
    const generated = createUser(t, SITE_KEY, newUser({ email: 'b@x.example' }), now);
    expect(generated.apiId).not.toBe(chosen.apiId);
    expect(generated.apiId).toMatch(/^[A-Za-z0-9]+$/);
    expect(t.userByApiId(chosen.apiId)).toBe(chosen);
    expect(t.userByApiId(generated.apiId)).toBe(generated);
  });

  it('keeps the API id a client gives and refuses one already taken (seed 001, Users: id optional; User: id unique)', () => {
    const { t, now } = demo();
    expect(createUser(t, SITE_KEY, newUser({ id: 'nora' }), now).apiId).toBe('nora');
    const error = caught(() => createUser(t, SITE_KEY, newUser({ id: 'lena', email: 'z@x.example' }), now));
    expect(Object.keys(error.fields)).toEqual(['id']);
  });

  it.each([
    ['the same e-mail', 'lena@demo.example'],
    ['the e-mail in upper case', 'LENA@DEMO.EXAMPLE'],
    ['the e-mail in mixed case', 'Lena@Demo.Example'],
  ])('refuses a second user with %s, case-insensitively (seed 001, Users: email unique)', (_, email) => {
    const { t, now } = demo();
    const count = t.users.size;
    const error = caught(() => createUser(t, SITE_KEY, newUser({ email }), now));
    expect(error.kind).toBe('validation');
    expect(Object.keys(error.fields)).toEqual(['email']);
    expect(t.users.size).toBe(count);
  });

  it.each<[string, string, boolean]>([
    ['7 characters', '1234567', false],
    ['7 characters in 14 UTF-16 units', '🔥'.repeat(7), false],
    ['8 characters outside the BMP', '🔥'.repeat(8), true],
    ['empty', '', false],
    ['8 characters', '12345678', true],
    ['long', 'a much longer passphrase', true],
  ])('password of %s: accepted = %s (seed 001, Users: password minimum 8 characters)', (_, password, ok) => {
    const { t, now } = demo();
    const run = () => createUser(t, SITE_KEY, newUser({ password }), now);
    if (ok) expect(run().email).toBe('nora@demo.example');
    else expect(Object.keys(caught(run).fields)).toEqual(['password']);
  });

  it.each<[string, boolean]>([
    ['admin', true],
    ['manager', true],
    ['author', true],
    ['learner', true],
    ['superuser', false],
    ['Admin', false],
    ['', false],
  ])('role alias %j: accepted = %s (seed 001, Users: roleAlias required, a known role)', (roleAlias, ok) => {
    const { t, now } = demo();
    const run = () => createUser(t, SITE_KEY, newUser({ roleAlias }), now);
    if (ok) expect(run().role).toBe(roleAlias);
    else expect(Object.keys(caught(run).fields)).toEqual(['roleAlias']);
  });

  it('reports every problem at once and creates nothing (seed 001, Errors: 400 errors maps fields to messages)', () => {
    const { t, now } = demo();
    const before = JSON.stringify(t.toData());
    const error = caught(() =>
      createUser(
        t,
        SITE_KEY,
        newUser({
          email: 'ada@demo.example',
          password: 'short',
          roleAlias: 'boss',
          courses: [1, 9999],
          groups: [8888],
          attributes: { remote: 'yes' },
        }),
        now,
      ),
    );
    expect(Object.keys(error.fields).sort()).toEqual(
      ['attributes.remote', 'courses[1]', 'email', 'groups[0]', 'password', 'roleAlias'].sort(),
    );
    expect(JSON.stringify(t.toData())).toBe(before);
  });

  it('assigns the given courses with the given deadline (seed 001, Users: courses and deadlineAt)', () => {
    const { t, now } = demo();
    const deadline = now + 14 * 86_400;
    const created = createUser(t, SITE_KEY, newUser({ courses: [5, 9], deadlineAt: deadline }), now);
    const assignments = t.assignmentsOfUser(created.id);
    expect(assignments.map((a) => [a.courseId, a.deadlineAt, a.assignedAt])).toEqual([
      [5, deadline, now],
      [9, deadline, now],
    ]);
  });

  it('makes the user a member of the given groups and gives them the groups’ courses (seed 001, Users: groups)', () => {
    const { t, now } = demo();
    const sales = groupNamed(t, 'Sales');
    expect(sales.courseIds.length).toBeGreaterThan(0);
    const created = createUser(t, SITE_KEY, newUser({ groups: [sales.id] }), now);
    expect(created.groupIds).toEqual([sales.id]);
    expect(sales.memberIds).toContain(created.id);
    expect(
      t
        .assignmentsOfUser(created.id)
        .map((a) => a.courseId)
        .sort(),
    ).toEqual([...sales.courseIds].sort());
  });

  it('stores the fields given and the defaults of the others (seed 001, Users: fromApi default true)', () => {
    const { t, now } = demo();
    const created = createUser(
      t,
      SITE_KEY,
      newUser({
        occupation: 'Analyst',
        location: 'Porto',
        timezone: 'Europe/Lisbon',
        attributes: { remote: true },
      }),
      now,
    );
    expect(created).toMatchObject({
      name: 'Nora New',
      email: 'nora@demo.example',
      role: 'learner',
      occupation: 'Analyst',
      location: 'Porto',
      timezone: 'Europe/Lisbon',
      fromApi: true,
      isBanned: false,
      attributes: { remote: true },
    });
  });

  it('emits user.created with the new user (seed 001, Events: user.created)', () => {
    const { t, now } = demo();
    const created = createUser(t, SITE_KEY, newUser({ id: 'nora' }), now);
    const event = t.lastEvent('user.created');
    expect(event?.occuredAt).toBe(now);
    expect(event?.body.user).toMatchObject({ id: 'nora', email: created.email, role: { alias: 'learner' } });
  });
});

describe('updateUser (PATCH)', () => {
  it('replaces the complete attribute set: attributes left out are removed (seed 001, PATCH /users: custom attributes, the complete set)', () => {
    const { t, now } = demo();
    const lena = user(t, 'lena');
    expect(Object.keys(lena.attributes).length).toBeGreaterThan(1);
    updateUser(t, SITE_KEY, 'lena', { email: lena.email, attributes: { employee_number: 'E-9' } }, now);
    expect(user(t, 'lena').attributes).toEqual({ employee_number: 'E-9' });
  });

  it('leaves the attributes alone when none are sent (seed 001, PATCH /users)', () => {
    const { t, now } = demo();
    const before = structuredClone(user(t, 'lena').attributes);
    updateUser(t, SITE_KEY, 'lena', { email: 'lena@demo.example', occupation: 'Lead' }, now);
    expect(user(t, 'lena').attributes).toEqual(before);
    expect(user(t, 'lena').occupation).toBe('Lead');
  });

  it('changes only the fields given (seed 001, PATCH /users)', () => {
    const { t, now } = demo();
    const before = structuredClone(user(t, 'liam'));
    updateUser(t, SITE_KEY, 'liam', { email: 'liam@demo.example', location: 'Madrid' }, now);
    expect(user(t, 'liam')).toEqual({ ...before, location: 'Madrid' });
  });

  it('keeps a user’s own e-mail, even in another case, and finds them by it (seed 001, PATCH /users: email unique)', () => {
    const { t, now } = demo();
    const lena = updateUser(t, SITE_KEY, 'lena', { email: 'LENA@demo.example' }, now);
    expect(lena.email).toBe('LENA@demo.example');
    expect(t.userByEmail('lena@demo.example')).toBe(lena);
  });

  it('refuses another user’s e-mail and changes nothing (seed 001, PATCH /users: email unique)', () => {
    const { t, now } = demo();
    const before = JSON.stringify(t.toData());
    const error = caught(() =>
      updateUser(t, SITE_KEY, 'lena', { email: 'Liam@demo.example', name: 'Renamed' }, now),
    );
    expect(Object.keys(error.fields)).toEqual(['email']);
    expect(JSON.stringify(t.toData())).toBe(before);
  });

  it('moves the e-mail index with the e-mail: the old address is free again (seed 001, User: email unique across the site)', () => {
    const { t, now } = demo();
    updateUser(t, SITE_KEY, 'lena', { email: 'lena.new@demo.example' }, now);
    expect(t.userByEmail('lena@demo.example')).toBeUndefined();
    expect(createUser(t, SITE_KEY, newUser({ email: 'lena@demo.example' }), now).email).toBe(
      'lena@demo.example',
    );
  });

  it.each([
    ['a short password', { password: 'short' }, 'password'],
    ['an unknown role', { roleAlias: 'root' }, 'roleAlias'],
    [
      'an invalid attribute value',
      { attributes: { experience_years: 'ten' } },
      'attributes.experience_years',
    ],
  ])('refuses %s and changes nothing (seed 001, PATCH /users: 400)', (_, change, field) => {
    const { t, now } = demo();
    const before = JSON.stringify(t.toData());
    const error = caught(() =>
      updateUser(t, SITE_KEY, 'lena', { email: 'lena@demo.example', ...change }, now),
    );
    expect(Object.keys(error.fields)).toEqual([field]);
    expect(JSON.stringify(t.toData())).toBe(before);
  });

  it('answers not_found for an unknown user (seed 001, PATCH /users: 404)', () => {
    const { t, now } = demo();
    expect(caught(() => updateUser(t, SITE_KEY, 'nobody', { email: 'x@x.example' }, now)).kind).toBe(
      'not_found',
    );
  });
});

describe('banUser and unbanUser', () => {
  it('refuses to ban an expert: unprocessable, with the blocking courses in data.courses (seed 001, User ban state: expert → 422)', () => {
    const { t, now } = demo();
    const otto = user(t, 'otto');
    const error = caught(() => banUser(t, SITE_KEY, otto, now));
    expect(error.kind).toBe('unprocessable');
    expect(error.data?.courses).toEqual([
      { id: 1, name: 'Workplace safety', expertHomeworks: 3, expertClassworks: 1 },
      { id: 2, name: 'Data protection basics', expertHomeworks: 0, expertClassworks: 2 },
    ]);
    expect(otto.isBanned).toBe(false);
  });

  it('bans an active user (seed 001, User ban state: active → banned)', () => {
    const { t, now } = demo();
    expect(banUser(t, SITE_KEY, user(t, 'lena'), now).isBanned).toBe(true);
    expect(user(t, 'lena').isBanned).toBe(true);
  });

  it('banning a banned user again changes nothing (seed 001, POST /users/blocked)', () => {
    const { t, now } = demo();
    banUser(t, SITE_KEY, user(t, 'lena'), now);
    const before = JSON.stringify(t.toData());
    expect(banUser(t, SITE_KEY, user(t, 'lena'), now).isBanned).toBe(true);
    expect(JSON.stringify(t.toData())).toBe(before);
  });

  it('unbans a banned user, and unbanning an active user changes nothing (seed 000, unban_user: restores access)', () => {
    const { t, now } = demo();
    banUser(t, SITE_KEY, user(t, 'lena'), now);
    expect(unbanUser(t, SITE_KEY, user(t, 'lena'), now).isBanned).toBe(false);
    const before = JSON.stringify(t.toData());
    expect(unbanUser(t, SITE_KEY, user(t, 'lena'), now).isBanned).toBe(false);
    expect(JSON.stringify(t.toData())).toBe(before);
  });
});

describe('changeEmail', () => {
  it('changes the e-mail and records the notification (seed 000, change_user_email)', () => {
    const { t, now } = demo();
    const lena = changeEmail(t, SITE_KEY, user(t, 'lena'), 'lena@new.example', now);
    expect(lena.email).toBe('lena@new.example');
    expect(t.userByEmail('LENA@NEW.EXAMPLE')).toBe(lena);
    expect(t.userByEmail('lena@demo.example')).toBeUndefined();
    expect(t.audit.at(-1)).toMatchObject({
      action: 'user.email.change',
      details: { from: 'lena@demo.example', to: 'lena@new.example', notificationSent: true },
    });
  });

  it.each(['liam@demo.example', 'LIAM@demo.example'])(
    'refuses %s, another user’s e-mail, with conflict EMAIL_TAKEN and changes nothing (seed 000, change_user_email; seed 001, email unique)',
    (email) => {
      const { t, now } = demo();
      const before = JSON.stringify(t.toData());
      const error = caught(() => changeEmail(t, SITE_KEY, user(t, 'lena'), email, now));
      expect(error.kind).toBe('conflict');
      expect(error.code).toBe('EMAIL_TAKEN');
      expect(JSON.stringify(t.toData())).toBe(before);
    },
  );
});

describe('passwords', () => {
  it.each([
    [
      'created',
      (t: TenantState, now: number) =>
        createUser(t, SITE_KEY, newUser({ password: 'Zebra-Sunrise-42' }), now),
    ],
    [
      'changed',
      (t: TenantState, now: number) =>
        updateUser(t, SITE_KEY, 'lena', { email: 'lena@demo.example', password: 'Zebra-Sunrise-42' }, now),
    ],
  ])(
    'never stores a %s password in clear (seed 001, Users: password; the state holds a hash only)',
    (_, write) => {
      const { t, now } = demo();
      const u = write(t, now);
      expect(u.passwordHash).not.toBe('Zebra-Sunrise-42');
      expect(u.passwordHash).not.toContain('Zebra-Sunrise-42');
      expect(JSON.stringify(t.toData())).not.toContain('Zebra-Sunrise-42');
    },
  );

  it('keeps none of the demo users’ passwords in clear (seed 001, Users: password)', () => {
    const { t } = demo();
    expect(JSON.stringify(t.toData())).not.toContain('demo-password-');
  });

  it('changes the stored hash when the password changes (seed 001, PATCH /users: password)', () => {
    const { t, now } = demo();
    const before = user(t, 'lena').passwordHash;
    updateUser(t, SITE_KEY, 'lena', { email: 'lena@demo.example', password: 'another password' }, now);
    expect(user(t, 'lena').passwordHash).not.toBe(before);
  });
});
