// The users' apiId and email lookups at the million-user scale (seed 001, Endpoints > Users: a user
// is found by id or email) are kept in typed arrays, not in Maps of a million strings. Checked
// against the Map they replaced, on random data, through the same calls. Counts, not timings.
import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../mock/domain/key-index.ts';
import type { User } from '../../mock/domain/model.ts';
import { TenantState } from '../../mock/domain/tenant-state.ts';
import { scaleTenant } from '../../mock/seed/scale.ts';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s % n;
  };
}

describe('key index (string key → id in typed arrays)', () => {
  it('answers what a Map answers after random sets, re-keys and deletes, through several growths', () => {
    const pick = random(11);
    const keyOfId = new Map<number, string>();
    const index = new KeyIndex((id) => keyOfId.get(id));
    const map = new Map<string, number>();
    // Few distinct keys, so keys collide, get re-pointed and deleted often; odd ids beyond int32 too.
    const key = () => `k${pick(3_000)}${pick(2) ? '@X.test' : ''}`;
    for (let step = 0; step < 20_000; step++) {
      const op = pick(10);
      if (op < 6) {
        const id = pick(50) === 0 ? 2 ** 40 + step : step + 1;
        const k = key();
        keyOfId.set(id, k);
        index.set(k, id);
        map.set(k, id);
      } else if (op < 8) {
        // A change of key, the way setUserEmail does it: delete the old key, change, set the new one.
        const ids = [...map.values()];
        const id = ids[pick(ids.length)];
        if (id === undefined) continue;
        const old = keyOfId.get(id) as string;
        const k = key();
        index.delete(old);
        map.delete(old);
        keyOfId.set(id, k);
        index.set(k, id);
        map.set(k, id);
      } else {
        const k = key();
        expect(index.get(k)).toBe(map.get(k));
      }
    }
    for (let n = 0; n < 3_000; n++)
      for (const k of [`k${n}`, `k${n}@X.test`]) expect(index.get(k), k).toBe(map.get(k));
  });

  it('finds every scale-seed user by apiId and by email in any case, and a changed email only by its new value', () => {
    const data = scaleTenant({ users: 5_000, courses: 5, assignments: 5_000 });
    const t = new TenantState(data);
    for (const user of t.users.values()) {
      expect(t.userByApiId(user.apiId)).toEqual(user);
      expect(t.userByEmail(user.email.toUpperCase())?.id).toBe(user.id);
    }
    expect(t.userByApiId('u5001')).toBeUndefined();
    expect(t.userByEmail('nobody@scale.example')).toBeUndefined();
    const user = t.users.get(42) as User;
    const old = user.email;
    t.setUserEmail(user.id, 'New.Address@Example.test');
    expect(t.userByEmail(old)).toBeUndefined();
    expect(t.userByEmail('new.address@example.test')?.id).toBe(42);
    // A user added later with another user's address takes the address over, as the Map did.
    t.addUser({ ...user, id: 9_000, apiId: 'u9000', email: 'NEW.address@example.test' });
    expect(t.userByEmail('new.address@example.test')?.id).toBe(9_000);
    expect(t.userByApiId('u9000')?.id).toBe(9_000);
  });
});
