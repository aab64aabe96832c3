// Assignments of courses to users (seed 001, "Assignment"; seed 000, assign_training and friends).
// Assigning is idempotent: a user holds at most one assignment per course, and re-assigning it is a
// no-op. The flags `isCourseStarted/Finished/Expired` are derived from the record and the clock.
import { type Actor, audit } from './audit.ts';
import { DAY } from './clock.ts';
import { conflict, notFound, unprocessable } from './errors.ts';
import { courseFinished } from './events.ts';
import type { Assignment, Group } from './model.ts';
import type { TenantState } from './tenant-state.ts';

export type AssignmentStatus = 'notStarted' | 'inProgress' | 'finished' | 'overdue';

export interface AssignOptions {
  startAt?: number | null;
  deadlineAt?: number | null;
}

export const isExpired = (a: Assignment, now: number) =>
  a.finishedAt === null && a.deadlineAt !== null && now > a.deadlineAt;

/**
 * When the assignment starts: v1's `assignAt` (v2's `startAt`), else the moment it was made. The
 * assignment is inactive until then: v1 shows this time as `assignedAt`, and the learner cannot
 * start, progress or finish before it (seed 001, POST /courses/{courseId}/assignments: `assignAt`,
 * "when the assignment starts"; the contract marks the reading `x-assumed`).
 */
export const activeFrom = (a: Assignment) => a.startAt ?? a.assignedAt;

export function statusOf(a: Assignment, now: number): AssignmentStatus {
  if (a.finishedAt !== null) return 'finished';
  if (isExpired(a, now)) return 'overdue';
  return a.startedAt !== null ? 'inProgress' : 'notStarted';
}

/** Assigns one course to one user; answers the assignment and whether it is new. */
export function assign(
  t: TenantState,
  userId: number,
  courseId: number,
  options: AssignOptions,
  at: number,
): { assignment: Assignment; created: boolean } {
  const existing = t.assignment(userId, courseId);
  if (existing) return { assignment: existing, created: false };
  const assignment: Assignment = {
    id: t.nextId('assignment'),
    userId,
    courseId,
    assignedAt: at,
    startAt: options.startAt ?? null,
    deadlineAt: options.deadlineAt ?? null,
    startedAt: null,
    finishedAt: null,
    progressValue: 0,
    resultValue: null,
  };
  t.addAssignment(assignment);
  return { assignment, created: true };
}

/**
 * Assigns a course to every member of a group, and to its future members; answers how many were
 * newly assigned and how many banned members were left out. A ban "revokes … course access" (seed
 * 000, ban_user): a banned member is skipped, as v1's `users` list and assign_training skip or refuse
 * a banned user (x-assumed: the seeds do not rule on groups). Unbanned, she gets the courses of the
 * groups she joins from then on; those assigned to her groups while she was banned, only when
 * assigned again.
 */
export function assignToGroup(
  t: TenantState,
  groupId: number,
  courseId: number,
  options: AssignOptions,
  at: number,
): { created: number; bannedSkipped: number } {
  const group = t.groups.get(groupId);
  if (!group) throw notFound(`group ${groupId}`);
  if (!group.courseIds.includes(courseId)) group.courseIds.push(courseId);
  let created = 0;
  let bannedSkipped = 0;
  for (const userId of group.memberIds) {
    if (t.users.get(userId)?.isBanned) bannedSkipped++;
    else if (assign(t, userId, courseId, options, at).created) created++;
  }
  return { created, bannedSkipped };
}

// Learner progress, driven through the admin API in place of a learner's browser.

/**
 * The assignment a learner plays. A banned learner plays none: a ban "revokes login and course
 * access, keeps history" (seed 000, ban_user; seed 001, User ban state: "user cannot log in"), so
 * start, progress and finish are refused with 422 `USER_BANNED` (the status and code `/api/v2`
 * gives a banned user's assignment) before anything changes: no progress, no certificate, no
 * `course.finished`. What was recorded before the ban stays; unbanned ("restores access"), the
 * learner goes on from it.
 */
function assignmentOf(t: TenantState, userId: number, courseId: number): Assignment {
  const user = t.users.get(userId);
  if (!user) throw notFound(`user ${userId}`);
  if (!t.courses.has(courseId)) throw notFound(`course ${courseId}`);
  const a = t.assignment(userId, courseId);
  if (!a) throw notFound(`assignment of course ${courseId} to user ${userId}`);
  if (user.isBanned)
    throw unprocessable(
      'USER_BANNED',
      `User ${user.id} (${user.apiId}) is banned; a banned user cannot start, progress or finish a course.`,
    );
  return a;
}

/** Before its start an assignment cannot be played: 409 `ASSIGNMENT_NOT_STARTED`, nothing changes. */
const refuseInactive = (a: Assignment, at: number) => {
  if (at < activeFrom(a)) {
    throw conflict(
      'ASSIGNMENT_NOT_STARTED',
      `the assignment starts at ${activeFrom(a)} (assignAt); it cannot be played before then`,
    );
  }
};

const refuseFinished = (a: Assignment) => {
  if (a.finishedAt !== null) {
    throw conflict('ALREADY_FINISHED', 'the assignment is finished already');
  }
};

export function startCourse(t: TenantState, userId: number, courseId: number, at: number): Assignment {
  const a = assignmentOf(t, userId, courseId);
  refuseFinished(a);
  refuseInactive(a, at);
  t.markStarted(a, at);
  return a;
}

export function setProgress(
  t: TenantState,
  userId: number,
  courseId: number,
  progress: number,
  at: number,
): Assignment {
  const a = assignmentOf(t, userId, courseId);
  refuseFinished(a);
  refuseInactive(a, at);
  t.markStarted(a, at);
  t.setProgress(a, Math.min(99, progress));
  return a;
}

/** Finishes a course: the result is recorded, `course.finished` is emitted, a certificate issued when the course has one. */
export function finishCourse(
  t: TenantState,
  actor: Actor,
  userId: number,
  courseId: number,
  result: number,
  at: number,
): Assignment {
  const a = assignmentOf(t, userId, courseId);
  refuseFinished(a);
  refuseInactive(a, at);
  const user = t.users.get(userId);
  const course = t.courses.get(courseId);
  if (!user || !course) throw notFound('assignment');
  t.markFinished(a, at, result);
  if (course.settings.hasCertificate && result >= course.settings.passingScore) {
    const days = course.settings.certificateValidDays;
    t.certificates.push({
      id: t.nextId('certificate'),
      userId,
      courseId,
      issuedAt: at,
      expiresAt: days ? at + days * DAY : null,
    });
  }
  courseFinished(t, user, course, result, at);
  audit(
    t,
    actor,
    at,
    'course.finish',
    { type: 'assignment', id: String(a.id) },
    { userId, courseId, resultValue: result },
  );
  return a;
}

export const certificateOf = (t: TenantState, userId: number, courseId: number) =>
  t.certificates.find((c) => c.userId === userId && c.courseId === courseId) ?? null;

/**
 * Seed 000, list_assignments by `groupId`: the group's members' assignments to the group's courses
 * (a member's other courses are theirs, not the group's).
 */
export function assignmentsOfGroup(t: TenantState, group: Group): Assignment[] {
  const courses = new Set(group.courseIds);
  // Only the assignments to the group's courses are made: a group of 20 000 members at the
  // million-user seed made 100 000 records a request to answer an empty list.
  return courses.size ? group.memberIds.flatMap((id) => t.assignmentsOfUser(id, courses)) : [];
}

/** Seed 000, list_certificates: the user's certificates with their course's name, issue and expiry dates. */
export const certificatesOfUser = (t: TenantState, userId: number) =>
  t.certificates
    .filter((c) => c.userId === userId)
    .map((c) => ({
      id: c.id,
      courseId: c.courseId,
      courseName: t.courses.get(c.courseId)?.name ?? '',
      issuedAt: c.issuedAt,
      expiresAt: c.expiresAt,
    }));
