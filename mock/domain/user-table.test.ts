// The scale seed's users made from their ids (user-table.ts): every read answers what a map of
// objects would, and every write of seed 001 ("User", "Users", "User ban state", "Group") and seed
// 000 (ban_user, unban_user, change_user_email) sticks to a made user as it does to any other.
import { describe, expect, it } from 'vitest';
import { scaleTenant } from '../seed/scale.ts';
import { upsertAttributes } from './attributes.ts';
import { SITE_KEY } from './audit.ts';
import { addMember } from './groups.ts';
import type { User } from './model.ts';
import { TenantState } from './tenant-state.ts';
import { banUser, changeEmail, createUser, unbanUser, updateUser, userByApiId } from './users.ts';

const AT = 1_800_000_000;
const scale = (users: number) => new TenantState(scaleTenant({ users, courses: 5, assignments: users }));

describe('users made from their ids (the scale seed)', () => {
  it('hands over no user object, and reads like a map of every user in id order', () => {
    const data = scaleTenant({ users: 3_000, courses: 5, assignments: 3_000 });
    expect(data.users).toEqual([]);
    const t = new TenantState(data);
    expect(t.users.size).toBe(3_000);
    expect([...t.users.keys()]).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 1));
    expect([...t.users.values()].map((u) => u.id)).toEqual([...t.users.keys()]);
    expect(t.users.get(42)).toMatchObject({ id: 42, apiId: 'u42', role: 'learner', isBanned: false });
    expect(t.users.get(42)?.email).toMatch(/42@scale\.example$/);
    expect(t.users.has(3_000) && !t.users.has(3_001) && !t.users.has(0) && !t.users.has(1.5)).toBe(true);
    expect(t.users.get(3_001)).toBeUndefined();
  });

  it('finds a made user by apiId and by e-mail in any case, and nothing by a near miss', () => {
    const t = scale(500);
    const user = t.users.get(123) as User;
    expect(t.userByApiId('u123')?.id).toBe(123);
    expect(t.userByEmail(user.email.toUpperCase())?.id).toBe(123);
    for (const miss of ['u0', 'u501', 'u0123', 'U123', 'u123 ', 'x123'])
      expect(t.userByApiId(miss), miss).toBeUndefined();
    // Another user's number with this user's mailbox is no address of anyone.
    expect(t.userByEmail(user.email.replace('123@', '124@'))).toBeUndefined();
  });

  it('keeps a write to a made user: profile, e-mail, ban, group, later reads and lookups answer it', () => {
    const t = scale(500);
    const oldEmail = (t.users.get(7) as User).email;
    updateUser(t, SITE_KEY, 'u7', { email: 'Seven@Example.test', name: 'Severin Seven', bio: 'New bio' }, AT);
    expect(t.users.get(7)).toMatchObject({
      name: 'Severin Seven',
      email: 'Seven@Example.test',
      bio: 'New bio',
    });
    expect(t.userByEmail(oldEmail)).toBeUndefined();
    expect(t.userByEmail('seven@example.test')?.id).toBe(7);
    expect(userByApiId(t, 'u7').bio).toBe('New bio');

    expect(banUser(t, SITE_KEY, t.users.get(8) as User, AT).isBanned).toBe(true);
    expect(t.users.get(8)?.isBanned).toBe(true);
    expect(unbanUser(t, SITE_KEY, t.users.get(8) as User, AT).isBanned).toBe(false);
    expect(t.users.get(8)?.isBanned).toBe(false);

    expect(changeEmail(t, SITE_KEY, t.users.get(9) as User, 'nine@example.test', AT).email).toBe(
      'nine@example.test',
    );
    expect(t.userByEmail('nine@example.test')?.id).toBe(9);

    addMember(t, 3, 10, AT);
    expect(t.users.get(10)?.groupIds).toEqual([11, 3]);
    expect(t.users.get(11)?.groupIds).toEqual([12]);

    // The count and the order do not change with the writes.
    expect(t.users.size).toBe(500);
    expect([...t.users.values()].slice(6, 10).map((u) => [u.id, u.email])).toEqual([
      [7, 'Seven@Example.test'],
      [8, (t.users.get(8) as User).email],
      [9, 'nine@example.test'],
      [10, (t.users.get(10) as User).email],
    ]);
  });

  it('answers a page of users as a slice of every user in order, across made, written and created ones', () => {
    const t = scale(40);
    (t.editUser(7) as User).bio = 'written';
    for (const n of [1, 2, 3])
      createUser(
        t,
        SITE_KEY,
        { name: `New ${n}`, email: `new${n}@x.test`, password: 'long-enough', roleAlias: 'learner' },
        AT,
      );
    const everyone = [...t.users.values()];
    for (const [offset, limit] of [
      [0, 5],
      [5, 5],
      [38, 4],
      [40, 2],
      [41, 10],
      [43, 1],
      [0, 100],
    ] as const)
      expect(t.users.slice(offset, limit), `${offset}+${limit}`).toEqual(
        everyone.slice(offset, offset + limit),
      );
    expect(t.users.slice(5, 5)[1]?.bio).toBe('written');
  });

  it('refuses an e-mail a made user holds, and lets a user keep its own', () => {
    const t = scale(50);
    const taken = (t.users.get(2) as User).email;
    expect(() => updateUser(t, SITE_KEY, 'u3', { email: taken }, AT)).toThrow();
    expect(() => updateUser(t, SITE_KEY, 'u2', { email: taken, bio: 'same address' }, AT)).not.toThrow();
    expect(() =>
      createUser(
        t,
        SITE_KEY,
        { name: 'N', email: taken.toUpperCase(), password: 'long-enough', roleAlias: 'learner' },
        AT,
      ),
    ).toThrow();
    expect(() =>
      createUser(
        t,
        SITE_KEY,
        { id: 'u4', name: 'N', email: 'n@x.test', password: 'long-enough', roleAlias: 'learner' },
        AT,
      ),
    ).toThrow();
  });

  it('moves the values of a renamed user attribute on made users that hold one (seed 001, Custom attribute)', () => {
    const t = scale(50);
    const [def] = upsertAttributes(t, 'user', [
      { name: 'Badge', type: 1, apiId: 'badge', position: 1, isRequired: false, isVisible: true },
    ]);
    updateUser(
      t,
      SITE_KEY,
      'u5',
      { email: (t.users.get(5) as User).email, attributes: { badge: 'gold' } },
      AT,
    );
    upsertAttributes(t, 'user', [
      {
        id: def?.id,
        name: 'Badge',
        type: 1,
        apiId: 'medal',
        position: 1,
        isRequired: false,
        isVisible: true,
      },
    ]);
    expect(t.users.get(5)?.attributes).toEqual({ medal: 'gold' });
    expect(t.users.get(6)?.attributes).toEqual({});
  });

  it('fails loudly on a write that bypasses TenantState, instead of changing a copy that is dropped', () => {
    const t = scale(10);
    const user = t.users.get(4) as User;
    expect(() => {
      user.bio = 'lost';
    }).toThrow(TypeError);
    expect(() => user.groupIds.push(1)).toThrow(TypeError);
    expect(() => {
      user.attributes.x = 1;
    }).toThrow(TypeError);
  });

  it('writes every user, made or not, into a snapshot that loads back as the same users', () => {
    const t = scale(300);
    updateUser(t, SITE_KEY, 'u5', { email: 'five@example.test', name: 'Fifi' }, AT);
    createUser(
      t,
      SITE_KEY,
      { name: 'Newcomer', email: 'new@x.test', password: 'long-enough', roleAlias: 'learner' },
      AT,
    );
    const data = JSON.parse(JSON.stringify(t.toData()));
    expect(data.users).toHaveLength(301);
    const back = new TenantState(data);
    expect([...back.users.values()]).toEqual([...t.users.values()]);
    expect(back.userByApiId('u301')?.name).toBe('Newcomer');
    expect(back.userByEmail('five@example.test')?.name).toBe('Fifi');
  });
});
