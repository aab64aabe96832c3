// The million-user layout (seed 001: "response time grows with platform size" — not here): the
// assignments live in columns with no object per assignment, the per-user aggregates in typed
// arrays, and the scale seed fills the columns directly. Each structure is checked against the
// plain maps it replaced, on random data, through the same public methods. Counts, not timings.
import { describe, expect, it, vi } from 'vitest';
import { AssignmentTable } from '../../mock/domain/assignment-table.ts';
import { VirtualClock } from '../../mock/domain/clock.ts';
import type { Assignment, User } from '../../mock/domain/model.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { searchUsers } from '../../mock/domain/search.ts';
import { TenantState } from '../../mock/domain/tenant-state.ts';
import { userText } from '../../mock/domain/user-search-index.ts';
import { START } from '../../mock/seed/demo.ts';
import { scaleTenant } from '../../mock/seed/scale.ts';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s % n;
  };
}

describe('assignments in columns (the records of model.ts, kept without an object each)', () => {
  it('answers what maps of objects answer, by user, course and id, after random assignments and progress', () => {
    const pick = random(7);
    const t = TenantState.empty('t', 'T', 'key');
    for (let id = 1; id <= 40; id++)
      t.addUser({
        ...(new TenantState(scaleTenant({ users: 1, courses: 1, assignments: 1 })).users.get(1) as User),
        id,
        apiId: `u${id}`,
        email: `u${id}@x.test`,
      });
    // The simple implementation: an object per assignment, a map per user and per course.
    const byId = new Map<number, Assignment>();
    const byUser = new Map<number, Map<number, Assignment>>();
    const byCourse = new Map<number, Map<number, Assignment>>();
    for (let step = 0; step < 2_000; step++) {
      const userId = 1 + pick(40);
      const courseId = 1 + pick(30);
      const held = byUser.get(userId)?.get(courseId);
      if (!held) {
        const a: Assignment = {
          id: t.nextId('assignment'),
          userId,
          courseId,
          assignedAt: 1_700_000_000 + step,
          startAt: pick(3) ? null : 1_700_000_000 + step * 1.5,
          deadlineAt: pick(2) ? null : 2 ** 33 + step,
          startedAt: null,
          finishedAt: null,
          progressValue: 0,
          resultValue: null,
        };
        t.addAssignment(a);
        const copy = { ...a };
        byId.set(a.id, copy);
        byUser.set(userId, (byUser.get(userId) ?? new Map()).set(courseId, copy));
        byCourse.set(courseId, (byCourse.get(courseId) ?? new Map()).set(userId, copy));
        continue;
      }
      const live = t.assignment(userId, courseId) as Assignment;
      if (held.finishedAt !== null) continue;
      const at = 1_700_100_000 + step;
      if (pick(2)) {
        t.markStarted(live, at);
        held.startedAt ??= at;
        t.setProgress(live, pick(99) + 0.5);
        held.progressValue = live.progressValue;
      } else {
        const result = pick(101);
        t.markFinished(live, at, result);
        Object.assign(held, {
          startedAt: held.startedAt ?? at,
          finishedAt: at,
          progressValue: 100,
          resultValue: result,
        });
      }
    }
    expect([...t.assignments.values()]).toEqual([...byId.values()]);
    for (let u = 1; u <= 40; u++) {
      expect(t.assignmentsOfUser(u)).toEqual([...(byUser.get(u)?.values() ?? [])]);
      for (let c = 1; c <= 30; c++) expect(t.assignment(u, c)).toEqual(byUser.get(u)?.get(c));
    }
    for (let c = 1; c <= 31; c++)
      expect(t.assignmentsOfCourse(c)).toEqual([...(byCourse.get(c)?.values() ?? [])]);
    for (const id of [0, 1, 17, t.assignments.size, t.assignments.size + 1])
      expect(t.assignments.get(id)).toEqual(byId.get(id));
    // The aggregates follow the records.
    for (let u = 1; u <= 40; u++) {
      const mine = [...(byUser.get(u)?.values() ?? [])];
      const finished = mine.filter((a) => a.finishedAt !== null);
      expect(t.userStats.get(u)).toEqual({
        assigned: mine.length,
        started: mine.filter((a) => a.startedAt !== null).length,
        finished: finished.length,
        resultSum: finished.reduce((sum, a) => sum + (a.resultValue ?? 0), 0),
      });
    }
    // A snapshot holds the same records, and a state loaded from it answers the same.
    const reloaded = new TenantState(structuredClone(t.toData()));
    expect([...reloaded.assignments.values()]).toEqual([...byId.values()]);
    expect(reloaded.userStats.get(3)).toEqual(t.userStats.get(3));
  });

  it('answers the record it handed out while that record is held, so a change through TenantState reaches every holder', () => {
    const table = new AssignmentTable();
    const a: Assignment = {
      id: 1,
      userId: 1,
      courseId: 1,
      assignedAt: 10,
      startAt: null,
      deadlineAt: null,
      startedAt: null,
      finishedAt: null,
      progressValue: 0,
      resultValue: null,
    };
    table.add(a);
    expect(table.ofUserAndCourse(1, 1)).toBe(a);
    expect(table.ofCourse(1)[0]).toBe(a);
  });

  it('keeps ids that arrive out of order (a hand-written snapshot) findable', () => {
    const table = new AssignmentTable();
    const base = {
      assignedAt: 1,
      startAt: null,
      deadlineAt: null,
      startedAt: null,
      finishedAt: null,
      progressValue: 0,
      resultValue: null,
    };
    for (const [id, userId] of [
      [5, 1],
      [2, 2],
      [9, 3],
    ] as const)
      table.add({ ...base, id, userId, courseId: 1 });
    expect([5, 2, 9, 4].map((id) => table.get(id)?.userId)).toEqual([1, 2, 3, undefined]);
  });

  it('refuses an id that is not a 32-bit integer, with an error the snapshot import reports, instead of storing a wrong one', () => {
    const table = new AssignmentTable();
    const base = {
      userId: 1,
      courseId: 1,
      assignedAt: 1,
      startAt: null,
      deadlineAt: null,
      startedAt: null,
      finishedAt: null,
      progressValue: 0,
      resultValue: null,
    };
    expect(() => table.add({ ...base, id: 2 ** 40 })).toThrow(TypeError);
    expect(table.size).toBe(0);
  });
});

describe('the scale seed builds the columns directly', () => {
  it('makes no assignment object: its tenant carries no assignment records, only the table', () => {
    const data = scaleTenant({ users: 2_000, courses: 50, assignments: 10_000 });
    expect(data.assignments).toEqual([]);
    expect(data.assignmentTable?.size).toBe(10_000);
    const record = vi.spyOn(AssignmentTable.prototype, 'record');
    const t = new TenantState(data);
    expect(record).not.toHaveBeenCalled();
    record.mockRestore();
    // Every assignment is counted once, from the columns.
    let assigned = 0;
    for (let u = 1; u <= 2_000; u++) assigned += t.userStats.get(u)?.assigned ?? 0;
    expect(assigned).toBe(10_000);
    expect(t.assignmentsOfUser(7)).toHaveLength(5);
  });

  it('lists the users without activity or results exactly as a set kept on every write would', () => {
    const t = new TenantState(scaleTenant({ users: 3_000, courses: 40, assignments: 6_000 }));
    const pick = random(11);
    for (let i = 0; i < 500; i++) {
      const a = t.assignmentsOfUser(1 + pick(3_000)).find((x) => x.finishedAt === null);
      if (!a) continue;
      if (pick(2)) t.markStarted(a, 1_800_000_000);
      else t.markFinished(a, 1_800_000_000, pick(101));
    }
    const stats = [...t.users.keys()].map((id) => [id, t.userStats.get(id)] as const);
    expect([...t.usersWithoutActivity]).toEqual(stats.filter(([, s]) => s?.started === 0).map(([id]) => id));
    expect([...t.usersWithoutResults]).toEqual(stats.filter(([, s]) => s?.finished === 0).map(([id]) => id));
  });
});

describe('resetting to the scale seed (docs/mock.md: POST /__admin/reset)', () => {
  it('builds fresh columns for each reset, so writes before it leave no trace', () => {
    const sizes = { users: 500, courses: 10, assignments: 1_000 };
    const seeds = () => ({ now: START, tenants: [scaleTenant(sizes)] });
    const platform = new Platform(new VirtualClock({ start: START, frozen: true }), seeds);
    platform.load(seeds(), true);
    const before = platform.tenant('demo');
    const a = before.assignmentsOfUser(1).find((x) => x.startedAt === null) as Assignment;
    before.markStarted(a, START);
    platform.load(seeds());
    const after = platform.tenant('demo');
    expect(after).not.toBe(before);
    expect(after.assignment(1, a.courseId)?.startedAt).toBeNull();
    expect(after.assignments.size).toBe(1_000);
  });
});

describe('user search skips chunks by trigram (seed 000, find_user)', () => {
  it('answers what testing every user answers, on random names, e-mails and needles', () => {
    const pick = random(3);
    const letters = 'abcdeéfgh.@1 \nÄ';
    const word = (n: number) => Array.from({ length: n }, () => letters[pick(letters.length)]).join('');
    const t = TenantState.empty('t', 'T', 'key');
    const template = new TenantState(scaleTenant({ users: 1, courses: 1, assignments: 1 })).users.get(
      1,
    ) as User;
    for (let id = 1; id <= 1_500; id++)
      t.addUser({
        ...template,
        id,
        apiId: `u${id}`,
        name: word(3 + pick(8)),
        email: `${word(2 + pick(6))}@x.test`,
      });
    for (let q = 0; q < 300; q++) {
      const needle = word(1 + pick(5));
      const got = searchUsers(t, needle, 20);
      const all = [...t.users.values()].filter((u) => userText(u).includes(needle.toLowerCase()));
      expect({ found: got.found.map((u) => u.id), total: got.total }, needle).toEqual({
        found: all.slice(0, 20).map((u) => u.id),
        total: all.length,
      });
    }
  });

  it('reads only the chunks holding every trigram of the needle', () => {
    const data = scaleTenant({ users: 20_000, courses: 20, assignments: 20_000 });
    const t = new TenantState(data);
    searchUsers(t, 'warm-up', 20);
    const reads = vi.spyOn(t.userSearch as unknown as { textOf: () => string }, 'textOf');
    // A last name and an id, as in `schmidt12345`: one user's e-mail.
    const needle = (t.users.get(12_345) as User).email.split('@')[0]?.split('.')[1] as string;
    expect(searchUsers(t, needle, 20).found.map((u) => u.id)).toEqual([12_345]);
    // 20 000 users make 313 chunks; the needle's trigrams rule out all but a handful.
    expect(reads.mock.calls.length).toBeLessThan(20);
    expect(reads.mock.calls.length).toBeGreaterThan(0);
  });
});
