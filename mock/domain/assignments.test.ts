// Assignments (seed 001, "Assignment" and "Courses and assignments"; seed 000, assign_training):
// idempotent assignment, the flags derived from the record and the virtual clock, and finishing a
// course with its certificate and `course.finished` event.
import { describe, expect, it } from 'vitest';
import {
  assign,
  assignmentsOfGroup,
  assignToGroup,
  certificateOf,
  certificatesOfUser,
  finishCourse,
  isExpired,
  setProgress,
  startCourse,
  statusOf,
} from './assignments.ts';
import { SITE_KEY } from './audit.ts';
import { DAY, VirtualClock } from './clock.ts';
import { DomainError } from './errors.ts';
import { addMember, createGroup } from './groups.ts';
import type { Course } from './model.ts';
import { TenantState } from './tenant-state.ts';
import { banUser, createUser, unbanUser } from './users.ts';
import { createReceiver } from './webhooks.ts';

const START = 1_767_225_600;

function caught(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

function addCourse(t: TenantState, id: number, settings: Partial<Course['settings']> = {}): Course {
  const course: Course = {
    id,
    name: `Course ${id}`,
    annotation: '',
    description: '',
    isDraft: false,
    createdAt: START,
    updatedAt: START,
    publishedAt: START,
    ownerId: 1,
    sharedWith: [],
    attachedFiles: [],
    settings: {
      sequential: false,
      hasCertificate: false,
      certificateValidDays: null,
      passingScore: 60,
      ...settings,
    },
    structure: { elements: [], transitions: [] },
    experts: [],
  };
  t.addCourse(course);
  return course;
}

/** A tenant with one learner, `lena`, and one plain course, 1; the clock is frozen at START. */
function setup() {
  const clock = new VirtualClock({ start: START, frozen: true });
  const t = TenantState.empty('t', 'T', 'key');
  const lena = createUser(
    t,
    SITE_KEY,
    { id: 'lena', name: 'Lena', email: 'lena@x.example', password: 'password1', roleAlias: 'learner' },
    START,
  );
  addCourse(t, 1);
  return { t, clock, lena };
}

describe('assign', () => {
  it('creates one assignment with the given start and deadline (seed 001, POST /courses/{courseId}/assignments: assignAt, deadlineAt)', () => {
    const { t, lena } = setup();
    const { assignment, created } = assign(
      t,
      lena.id,
      1,
      { startAt: START + 10, deadlineAt: START + DAY },
      START,
    );
    expect(created).toBe(true);
    expect(assignment).toMatchObject({
      userId: lena.id,
      courseId: 1,
      assignedAt: START,
      startAt: START + 10,
      deadlineAt: START + DAY,
      startedAt: null,
      finishedAt: null,
      progressValue: 0,
    });
    expect(t.assignmentsOfCourse(1)).toEqual([assignment]);
  });

  it('is idempotent: assigning the same course again is a no-op that keeps the first deadline (seed 000, assign_training: re-assigning is a no-op)', () => {
    const { t, lena } = setup();
    const first = assign(t, lena.id, 1, { deadlineAt: START + DAY }, START);
    const before = JSON.stringify(t.toData());
    const second = assign(t, lena.id, 1, { deadlineAt: START + 9 * DAY }, START + 60);
    expect(second.created).toBe(false);
    expect(second.assignment).toBe(first.assignment);
    expect(second.assignment.deadlineAt).toBe(START + DAY);
    expect(JSON.stringify(t.toData())).toBe(before);
    expect(t.userStats.get(lena.id)?.assigned).toBe(1);
  });

  /** Lena and Liam, learners, in the group Sales. */
  const salesOfTwo = () => {
    const { t, lena } = setup();
    const liam = createUser(
      t,
      SITE_KEY,
      { id: 'liam', name: 'Liam', email: 'liam@x.example', password: 'password1', roleAlias: 'learner' },
      START,
    );
    const group = createGroup(t, SITE_KEY, { name: 'Sales' }, START);
    addMember(t, group.id, lena.id, START);
    addMember(t, group.id, liam.id, START);
    return { t, lena, liam, group };
  };

  it('assigns a course to every member of a group and counts only the new assignments (seed 001, POST /courses/{courseId}/assignments: groups)', () => {
    const { t, lena, liam, group } = salesOfTwo();
    assign(t, lena.id, 1, {}, START);
    expect(assignToGroup(t, group.id, 1, { deadlineAt: START + DAY }, START)).toEqual({
      created: 1,
      bannedSkipped: 0,
    });
    expect(assignToGroup(t, group.id, 1, { deadlineAt: START + DAY }, START)).toEqual({
      created: 0,
      bannedSkipped: 0,
    });
    expect(t.assignmentsOfCourse(1).map((a) => a.userId)).toEqual([lena.id, liam.id]);
    expect(group.courseIds).toEqual([1]);
  });

  it('leaves a banned member out of a group assignment, and out of the courses of a group she joins (x-assumed: a ban revokes course access, seed 000 ban_user)', () => {
    const { t, lena, liam, group } = salesOfTwo();
    banUser(t, SITE_KEY, liam, START);
    expect(assignToGroup(t, group.id, 1, {}, START)).toEqual({ created: 1, bannedSkipped: 1 });
    expect(t.assignmentsOfCourse(1).map((a) => a.userId)).toEqual([lena.id]);
    const other = createGroup(t, SITE_KEY, { name: 'Night shift' }, START);
    assignToGroup(t, other.id, 2, {}, START);
    addMember(t, other.id, liam.id, START);
    expect(t.assignment(liam.id, 2)).toBeUndefined();
  });
});

describe('statusOf and isExpired', () => {
  type Progress = 'none' | 'started' | 'finished';
  const at = (t: TenantState, userId: number, progress: Progress, deadlineAt: number | null) => {
    const { assignment } = assign(t, userId, 1, { deadlineAt }, START - DAY);
    if (progress === 'started') startCourse(t, userId, 1, START - 60);
    if (progress === 'finished') finishCourse(t, SITE_KEY, userId, 1, 80, START - 60);
    return assignment;
  };

  it.each<[string, Progress, number | null, number, string, boolean]>([
    ['not started, no deadline', 'none', null, START + 365 * DAY, 'notStarted', false],
    ['not started, deadline ahead', 'none', START + DAY, START, 'notStarted', false],
    ['started, deadline ahead', 'started', START + DAY, START, 'inProgress', false],
    ['not started, deadline passed', 'none', START - 1, START, 'overdue', true],
    ['started, deadline passed', 'started', START - 1, START, 'overdue', true],
    ['finished before the deadline, clock past it', 'finished', START, START + DAY, 'finished', false],
    ['finished, no deadline', 'finished', null, START, 'finished', false],
    ['at the deadline second itself', 'started', START, START, 'inProgress', false],
  ])(
    '%s → %s (seed 001, Assignment: isCourseStarted, isCourseFinished, isExpired)',
    (_, progress, deadline, now, status, expired) => {
      const { t, lena } = setup();
      const a = at(t, lena.id, progress, deadline);
      expect(statusOf(a, now)).toBe(status);
      expect(isExpired(a, now)).toBe(expired);
    },
  );

  it('becomes overdue only once the deadline has passed on the virtual clock (seed 001, Assignment: isExpired; docs/adr-0002: deterministic, virtual clock)', () => {
    const { t, clock, lena } = setup();
    const deadline = START + 3 * DAY;
    const { assignment } = assign(t, lena.id, 1, { deadlineAt: deadline }, clock.now());
    startCourse(t, lena.id, 1, clock.now());
    const seen: [number, string, boolean][] = [];
    for (const step of [DAY, DAY, DAY - 1, 1, 1, DAY]) {
      clock.advance(step);
      seen.push([
        clock.now() - deadline,
        statusOf(assignment, clock.now()),
        isExpired(assignment, clock.now()),
      ]);
    }
    expect(seen).toEqual([
      [-2 * DAY, 'inProgress', false],
      [-DAY, 'inProgress', false],
      [-1, 'inProgress', false],
      [0, 'inProgress', false],
      [1, 'overdue', true],
      [DAY + 1, 'overdue', true],
    ]);
  });
});

describe('learner progress', () => {
  it('records the start once and caps progress below 100 until the course is finished (seed 001, Assignment: progressValue 0-100)', () => {
    const { t, lena } = setup();
    assign(t, lena.id, 1, {}, START);
    startCourse(t, lena.id, 1, START + 10);
    const a = setProgress(t, lena.id, 1, 150, START + 20);
    expect(a.startedAt).toBe(START + 10);
    expect(a.progressValue).toBe(99);
    expect(finishCourse(t, SITE_KEY, lena.id, 1, 70, START + 30).progressValue).toBe(100);
  });

  it.each([
    ['start', (t: TenantState, id: number) => startCourse(t, id, 1, START)],
    ['progress', (t: TenantState, id: number) => setProgress(t, id, 1, 50, START)],
    ['finish', (t: TenantState, id: number) => finishCourse(t, SITE_KEY, id, 1, 50, START)],
  ])('answers not_found to %s on a course that is not assigned (seed 001, 404)', (_, act) => {
    const { t, lena } = setup();
    expect(caught(() => act(t, lena.id)).kind).toBe('not_found');
  });
});

describe('finishCourse', () => {
  it.each<[string, Partial<Course['settings']>, number, { expiresAt: number | null } | null]>([
    ['no certificate on the course', { hasCertificate: false }, 100, null],
    ['a result below the passing score', { hasCertificate: true, passingScore: 60 }, 59, null],
    ['a result at the passing score', { hasCertificate: true, passingScore: 60 }, 60, { expiresAt: null }],
    ['a result above the passing score', { hasCertificate: true, passingScore: 60 }, 95, { expiresAt: null }],
    [
      'a certificate valid 365 days',
      { hasCertificate: true, passingScore: 50, certificateValidDays: 365 },
      80,
      { expiresAt: START + 365 * DAY },
    ],
    [
      'a certificate valid 30 days',
      { hasCertificate: true, passingScore: 0, certificateValidDays: 30 },
      0,
      { expiresAt: START + 30 * DAY },
    ],
  ])(
    'issues a certificate as the course says: %s (seed 000, list_certificates: issue and expiry dates)',
    (_, settings, result, want) => {
      const { t, lena } = setup();
      addCourse(t, 2, settings);
      assign(t, lena.id, 2, {}, START - DAY);
      finishCourse(t, SITE_KEY, lena.id, 2, result, START);
      const certificate = certificateOf(t, lena.id, 2);
      if (want === null) expect(certificate).toBeNull();
      else expect(certificate).toMatchObject({ userId: lena.id, courseId: 2, issuedAt: START, ...want });
      expect(t.certificates).toHaveLength(want ? 1 : 0);
    },
  );

  it('records the result and the finish time (seed 001, Assignment: finishedAt, resultValue)', () => {
    const { t, lena } = setup();
    assign(t, lena.id, 1, {}, START - DAY);
    const a = finishCourse(t, SITE_KEY, lena.id, 1, 73, START);
    expect(a).toMatchObject({ finishedAt: START, startedAt: START, resultValue: 73, progressValue: 100 });
  });

  it('emits course.finished with user, course and resultValue (seed 001, Events: course.finished)', () => {
    const { t, lena } = setup();
    assign(t, lena.id, 1, {}, START - DAY);
    finishCourse(t, SITE_KEY, lena.id, 1, 88, START + 5);
    const event = t.lastEvent('course.finished');
    expect(event?.occuredAt).toBe(START + 5);
    expect(event?.body).toMatchObject({
      user: { id: 'lena', email: 'lena@x.example', role: { alias: 'learner' } },
      course: { id: 1, name: 'Course 1' },
      resultValue: 88,
    });
  });

  it('refuses to finish a finished course with conflict ALREADY_FINISHED and changes nothing (seed 001, Assignment: isCourseFinished)', () => {
    const { t, lena } = setup();
    addCourse(t, 2, { hasCertificate: true, passingScore: 10 });
    assign(t, lena.id, 2, {}, START - DAY);
    finishCourse(t, SITE_KEY, lena.id, 2, 50, START);
    const before = JSON.stringify(t.toData());
    const error = caught(() => finishCourse(t, SITE_KEY, lena.id, 2, 99, START + 60));
    expect(error.kind).toBe('conflict');
    expect(error.code).toBe('ALREADY_FINISHED');
    expect(JSON.stringify(t.toData())).toBe(before);
  });

  it.each([
    ['start', (t: TenantState, id: number) => startCourse(t, id, 1, START + 60)],
    ['progress', (t: TenantState, id: number) => setProgress(t, id, 1, 10, START + 60)],
  ])('refuses to %s a finished course (seed 001, Assignment: isCourseFinished)', (_, act) => {
    const { t, lena } = setup();
    assign(t, lena.id, 1, {}, START - DAY);
    finishCourse(t, SITE_KEY, lena.id, 1, 50, START);
    expect(caught(() => act(t, lena.id)).code).toBe('ALREADY_FINISHED');
  });
});

describe('a ban revokes course access (seed 000, ban_user: "revokes login and course access, keeps history"; seed 001, User ban state: "user cannot log in")', () => {
  /** Lena banned after starting course 1 at 40 %; course 2 (with a certificate) assigned, not started; a receiver of course.finished. */
  function banned() {
    const { t, lena } = setup();
    addCourse(t, 2, { hasCertificate: true, passingScore: 10 });
    createReceiver(t, { url: 'http://127.0.0.1:9/hook', secret: 's', events: ['course.finished'] }, START);
    assign(t, lena.id, 1, {}, START - DAY);
    assign(t, lena.id, 2, {}, START - DAY);
    setProgress(t, lena.id, 1, 40, START);
    banUser(t, SITE_KEY, lena, START + 10);
    return { t, lena };
  }

  it.each([
    ['start', (t: TenantState, id: number) => startCourse(t, id, 2, START + 60)],
    ['progress', (t: TenantState, id: number) => setProgress(t, id, 1, 80, START + 60)],
    ['finish', (t: TenantState, id: number) => finishCourse(t, SITE_KEY, id, 2, 95, START + 60)],
  ])(
    'refuses to %s a course for a banned user with 422 USER_BANNED, changing nothing: no progress, no certificate, no course.finished, no delivery (000/ban-user)',
    (_, act) => {
      const { t, lena } = banned();
      const before = JSON.stringify(t.toData());
      const error = caught(() => act(t, lena.id));
      expect(error).toMatchObject({ kind: 'unprocessable', code: 'USER_BANNED' });
      expect(error.message).toMatch(/lena\) is banned/);
      expect(JSON.stringify(t.toData())).toBe(before);
      expect(t.certificates).toEqual([]);
      expect(t.lastEvent('course.finished')).toBeUndefined();
      expect(t.deliveries.size).toBe(0);
    },
  );

  it('keeps the progress recorded before the ban, and unbanned the learner goes on from it to a certificate and course.finished (000/ban-user.keeps-history, 000/unban-user: "restores access")', () => {
    const { t, lena } = banned();
    expect(t.assignment(lena.id, 1)).toMatchObject({ startedAt: START, progressValue: 40, finishedAt: null });
    unbanUser(t, SITE_KEY, t.users.get(lena.id) ?? lena, START + 20);
    expect(setProgress(t, lena.id, 1, 70, START + 30)).toMatchObject({ startedAt: START, progressValue: 70 });
    finishCourse(t, SITE_KEY, lena.id, 2, 95, START + 40);
    expect(certificateOf(t, lena.id, 2)).toMatchObject({ issuedAt: START + 40 });
    expect(t.lastEvent('course.finished')?.body).toMatchObject({ user: { id: 'lena' }, course: { id: 2 } });
    expect(t.deliveries.size).toBe(1);
  });
});

describe('assignmentsOfGroup', () => {
  it("lists the members' assignments to the group's courses, not their other courses (seed 000, list_assignments by groupId)", () => {
    const { t, lena } = setup();
    addCourse(t, 2);
    const group = createGroup(t, SITE_KEY, { name: 'Sales' }, START);
    addMember(t, group.id, lena.id, START);
    assign(t, lena.id, 1, {}, START);
    assignToGroup(t, group.id, 2, {}, START);
    expect(assignmentsOfGroup(t, group).map((a) => [a.userId, a.courseId])).toEqual([[lena.id, 2]]);
  });

  it('is empty for a group without members (seed 000, list_assignments by groupId)', () => {
    const { t } = setup();
    const group = createGroup(t, SITE_KEY, { name: 'Empty' }, START);
    assignToGroup(t, group.id, 1, {}, START);
    expect(assignmentsOfGroup(t, group)).toEqual([]);
  });
});

describe('certificatesOfUser', () => {
  it("lists only the user's certificates, each with its course's name, issue and expiry dates (seed 000, list_certificates)", () => {
    const { t, lena } = setup();
    const max = createUser(
      t,
      SITE_KEY,
      { id: 'max', name: 'Max', email: 'max@x.example', password: 'password1', roleAlias: 'learner' },
      START,
    );
    addCourse(t, 2, { hasCertificate: true, passingScore: 10, certificateValidDays: 30 });
    for (const user of [lena, max]) {
      assign(t, user.id, 2, {}, START - DAY);
      finishCourse(t, SITE_KEY, user.id, 2, 90, START);
    }
    const mine = certificatesOfUser(t, lena.id);
    expect(mine).toEqual([
      {
        id: certificateOf(t, lena.id, 2)?.id,
        courseId: 2,
        courseName: 'Course 2',
        issuedAt: START,
        expiresAt: START + 30 * DAY,
      },
    ]);
    expect(certificatesOfUser(t, 9_999)).toEqual([]);
  });
});
