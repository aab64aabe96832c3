// The write tools' rules (seed 000, "Write tools"): each acts as the key's owner (`actorId`), whose
// role the pipeline has already checked for the permission; the rules that need the target — role
// hierarchy, chain ownership, `course_edit` on that course — are checked here, before any change.
import { assign, assignToGroup } from './assignments.ts';
import { audit } from './audit.ts';
import { canEditCourse, cloneCourse, courseById } from './courses.ts';
import { forbidden, notFound, unprocessable } from './errors.ts';
import { groupById } from './groups.ts';
import type { Course, User } from './model.ts';
import { outranks } from './roles.ts';
import type { TenantState } from './tenant-state.ts';
import { banUser, changeEmail, unbanUser, userById } from './users.ts';

export function requireOutranks(actor: User, target: User): void {
  if (!outranks(actor.role, target.role)) {
    throw forbidden(
      'ROLE_HIERARCHY',
      `The target user's role (${target.role}) is not below yours (${actor.role}).`,
    );
  }
}

/** Seed 000: `course_edit` "on the specific course (owning, sharing or administering it)". */
export function requireCourseEdit(actor: User, course: Course): void {
  if (!canEditCourse(course, actor.id, actor.role === 'admin')) {
    throw forbidden(
      'COURSE_EDIT_DENIED',
      `You may not edit course ${course.id}: you neither own it nor is it shared with you.`,
    );
  }
}

export interface AssignUserInput {
  userId: number;
  deadlineAt?: number;
  startAt?: number;
}

/** assign_training: idempotent, "re-assigning the same user is a no-op". */
export function assignUserToCourse(
  t: TenantState,
  actorId: number,
  courseId: number,
  input: AssignUserInput,
  at: number,
) {
  courseById(t, courseId);
  const user = userById(t, input.userId);
  if (user.isBanned) throw unprocessable('USER_BANNED', `User ${user.id} is banned and cannot be assigned.`);
  const result = assign(
    t,
    user.id,
    courseId,
    { deadlineAt: input.deadlineAt ?? null, startAt: input.startAt ?? null },
    at,
  );
  if (result.created)
    audit(
      t,
      { userId: actorId },
      at,
      'course.assign',
      { type: 'course', id: String(courseId) },
      { userId: user.id, deadlineAt: input.deadlineAt ?? null },
    );
  return result;
}

/** bulk_assign (one call per course): the course to every member of each group. */
export function assignCourseToGroups(
  t: TenantState,
  actorId: number,
  courseId: number,
  groups: number[],
  deadlineAt: number | undefined,
  at: number,
) {
  courseById(t, courseId);
  const found = groups.map((id) => groupById(t, id));
  let usersAssigned = 0;
  let bannedSkipped = 0;
  for (const group of found) {
    const done = assignToGroup(t, group.id, courseId, { deadlineAt: deadlineAt ?? null }, at);
    usersAssigned += done.created;
    bannedSkipped += done.bannedSkipped;
  }
  audit(
    t,
    { userId: actorId },
    at,
    'course.assign.groups',
    { type: 'course', id: String(courseId) },
    { groups, usersAssigned },
  );
  return { courseId, groups: found, usersAssigned, bannedSkipped };
}

/** assign_chain: only the chain's owner; users and/or groups; one deadline for the whole chain. */
export function assignChain(
  t: TenantState,
  actor: User,
  chainId: number,
  input: { users?: number[]; groups?: number[]; deadlineAt?: number },
  at: number,
) {
  const chain = t.chains.get(chainId);
  if (!chain) throw notFound(`course chain ${chainId}`);
  if (chain.ownerId !== actor.id)
    throw forbidden(
      'CHAIN_NOT_OWNED',
      `Course chain ${chainId} belongs to another user; only its owner may assign it.`,
    );
  const users = (input.users ?? []).map((id) => userById(t, id));
  const groups = (input.groups ?? []).map((id) => groupById(t, id));
  const options = { deadlineAt: input.deadlineAt ?? null };
  for (const courseId of chain.courseIds) {
    for (const user of users) assign(t, user.id, courseId, options, at);
    for (const group of groups) assignToGroup(t, group.id, courseId, options, at);
  }
  audit(
    t,
    { userId: actor.id },
    at,
    'chain.assign',
    { type: 'chain', id: String(chainId) },
    { users: input.users ?? [], groups: input.groups ?? [] },
  );
  return {
    chainId,
    courseIds: chain.courseIds,
    users: users.map((u) => u.id),
    groups: groups.map((g) => g.id),
    deadlineAt: input.deadlineAt ?? null,
  };
}

export function banByAgent(t: TenantState, actor: User, userId: number, at: number): User {
  const target = userById(t, userId);
  requireOutranks(actor, target);
  return banUser(t, { userId: actor.id }, target, at);
}

export function unbanByAgent(t: TenantState, actor: User, userId: number, at: number): User {
  const target = userById(t, userId);
  requireOutranks(actor, target);
  return unbanUser(t, { userId: actor.id }, target, at);
}

export function changeEmailByAgent(
  t: TenantState,
  actor: User,
  userId: number,
  email: string,
  at: number,
): User {
  const target = userById(t, userId);
  requireOutranks(actor, target);
  return changeEmail(t, { userId: actor.id }, target, email, at);
}

export function cloneByAgent(t: TenantState, actor: User, courseId: number, at: number): Course {
  requireCourseEdit(actor, courseById(t, courseId));
  return cloneCourse(t, { userId: actor.id }, courseId, actor.id, at);
}
