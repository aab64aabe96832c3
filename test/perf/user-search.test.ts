// User search (seed 000, find_user: a case-insensitive substring of the name or e-mail, at most
// `limit` users in creation order, with the total) from the chunked index: the same answers as
// testing every user, built once rather than per search, and kept up to date by writes. Counts,
// not timings.
import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../mock/domain/clock.ts';
import type { User } from '../../mock/domain/model.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { searchUsers } from '../../mock/domain/search.ts';
import { userText } from '../../mock/domain/user-search-index.ts';
import { START } from '../../mock/seed/demo.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { scaleTenant } from '../../mock/seed/scale.ts';

function scale(users: number) {
  const platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
  platform.load({ now: START, tenants: [scaleTenant({ users, courses: 20, assignments: users })] }, true);
  return platform.tenant('demo');
}

/** What the seed asks for, user by user. */
function naive(users: Iterable<User>, query: string, limit: number) {
  const needle = query.toLowerCase();
  const all = [...users].filter((u) => userText(u).includes(needle));
  return { found: all.slice(0, limit).map((u) => u.id), total: all.length };
}

describe('user search from the chunked index (seed 000, find_user)', () => {
  it('answers exactly what testing every user answers, across chunk boundaries', () => {
    const t = scale(10_000);
    for (const query of [
      'greta',
      'GRETA',
      'a',
      '@',
      'weber1',
      '9999@',
      'a\nb',
      'noor o',
      'zzz',
      'é',
      '.',
      'n\nn',
    ])
      for (const limit of [1, 20, 50_000]) {
        const got = searchUsers(t, query, limit);
        expect({ found: got.found.map((u) => u.id), total: got.total }, `${query} / ${limit}`).toEqual(
          naive(t.users.values(), query, limit),
        );
      }
  });

  it('builds the index once, not per search', () => {
    const t = scale(10_000);
    searchUsers(t, 'greta', 20);
    const users = vi.spyOn(t.users, 'values');
    for (let i = 0; i < 20; i++) searchUsers(t, `weber${i}`, 20);
    expect(users).not.toHaveBeenCalled();
    expect(t.userSearch.rebuilds).toBe(1);
  });

  it('finds a user created, renamed or given a new e-mail after the index was built', () => {
    const t = scale(5_000);
    searchUsers(t, 'x', 20);
    const template = t.users.get(1) as User;
    t.addUser({ ...template, id: 5_001, apiId: 'late', name: 'Zelda Quokka', email: 'zelda@late.example' });
    expect(searchUsers(t, 'quokka', 20).found.map((u) => u.id)).toEqual([5_001]);
    t.setUserName(7, 'Wilhelmina Umlaut');
    expect(searchUsers(t, 'umlaut', 20).found.map((u) => u.id)).toEqual([7]);
    t.setUserEmail(8, 'Renamed.Person@Example.test');
    expect(searchUsers(t, 'renamed.person@', 20).found.map((u) => u.id)).toEqual([8]);
    expect(searchUsers(t, 'zelda', 20).total).toBe(1);
  });

  it('redoes only the renamed user’s chunk: no rebuild, and the old name is no longer found', () => {
    const t = scale(5_000);
    const before = searchUsers(t, 'weber1', 50);
    expect(before.total).toBeGreaterThan(0);
    for (const user of before.found) t.setUserName(user.id, `Renamed ${user.id}`);
    t.setUserEmail(4_999, 'last.chunk@example.test');
    for (const query of ['weber1', 'renamed', 'renamed 1', 'last.chunk', 'greta', 'a'])
      expect(
        (({ found, total }) => ({ found: found.map((u) => u.id), total }))(searchUsers(t, query, 50)),
        query,
      ).toEqual(naive(t.users.values(), query, 50));
    expect(t.userSearch.rebuilds).toBe(1);
  });

  it('a query holding a NUL finds what testing every user finds, from the index: no user is read in bulk', () => {
    const t = scale(5_000);
    searchUsers(t, 'x', 20);
    const template = t.users.get(1) as User;
    t.addUser({ ...template, id: 5_001, apiId: 'nul', name: 'Nul\u0000Inside', email: 'nul@late.example' });
    const secondName = (t.users.get(2) as User).name.toLowerCase();
    // The index keeps users apart with a NUL: these needles occur across two users there, which is no match.
    const crossing = [`\u0000${secondName[0]}`, 'e\u0000', `e\u0000${secondName.slice(0, 2)}`];
    const queries = ['l\u0000i', '\u0000', 'NUL\u0000', ...crossing];
    const everyone = [...t.users.values()];
    const expected = queries.map((q) => naive(everyone, q, 20));
    expect(expected.slice(0, 3)).toEqual([
      { found: [5_001], total: 1 },
      { found: [5_001], total: 1 },
      { found: [5_001], total: 1 },
    ]);
    const values = vi.spyOn(t.users, 'values');
    queries.forEach((query, k) => {
      const { found, total } = searchUsers(t, query, 20);
      expect({ found: found.map((u) => u.id), total }, JSON.stringify(query)).toEqual(expected[k]);
    });
    expect(values).not.toHaveBeenCalled();
  });
});
