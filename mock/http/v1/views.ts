// Platform records as the v1 API shows them (openapi/v1/components/schemas). User ids on the wire
// are the string API ids; everything else keeps its integer id.
import { activeFrom, isExpired } from '../../domain/assignments.ts';
import { definitionsOf } from '../../domain/attributes.ts';
import { courseView, shortUser } from '../../domain/events.ts';
import type { Assignment, AttributeDefinition, Course, Group, User } from '../../domain/model.ts';
import type { Leader } from '../../domain/statistics.ts';
import type { TenantState } from '../../domain/tenant-state.ts';

export { shortUser };
export const course = courseView;

export const user = (u: User) => ({
  id: u.apiId,
  name: u.name,
  language: u.language,
  occupation: u.occupation,
  location: u.location,
  timezone: u.timezone,
  email: u.email,
  isBanned: u.isBanned,
  role: { alias: u.role },
  fromApi: u.fromApi,
  image: null,
  attributes: u.attributes,
});

export const bannedUser = (u: User) => ({
  id: u.apiId,
  name: u.name,
  language: u.language,
  email: u.email,
  // Only a user the platform has just blocked is shown this way.
  isBanned: true as const,
  role: { alias: u.role },
  fromApi: u.fromApi,
});

export const group = (g: Group) => ({
  id: g.id,
  parentId: g.parentId,
  name: g.name,
  description: g.description,
  usersCount: g.memberIds.length,
  coursesCount: g.courseIds.length,
  image: null,
  attributes: g.attributes,
});

export const groupSummary = (g: Group) => ({
  id: g.id,
  name: g.name,
  usersCount: g.memberIds.length,
  coursesCount: g.courseIds.length,
});

export const courseDetail = (c: Course) => ({
  ...courseView(c),
  description: c.description,
  attachedFiles: c.attachedFiles,
});

const attributeCommon = (d: AttributeDefinition) => ({
  id: d.id,
  name: d.name,
  type: d.type,
  apiId: d.apiId,
  position: d.position,
  isRequired: d.isRequired,
});

/** Only user attributes carry `isEditable` (seed 001, "Custom attributes"). */
export const userAttribute = (d: AttributeDefinition) => ({
  ...attributeCommon(d),
  isEditable: d.isEditable,
  extraData: d.extraData,
});
export const groupAttribute = (d: AttributeDefinition) => ({ ...attributeCommon(d), extraData: d.extraData });

export const userAttributes = (t: TenantState) => definitionsOf(t, 'user').map(userAttribute);
export const groupAttributes = (t: TenantState) => definitionsOf(t, 'group').map(groupAttribute);

const assignmentFields = (a: Assignment, now: number) => ({
  assignedAt: activeFrom(a),
  startedAt: a.startedAt,
  deadlineAt: a.deadlineAt,
  finishedAt: a.finishedAt,
  progressValue: a.progressValue,
  resultValue: a.resultValue ?? 0,
  isCourseStarted: a.startedAt !== null,
  isCourseFinished: a.finishedAt !== null,
  isExpired: isExpired(a, now),
});

export const assignmentWithCourse = (t: TenantState, a: Assignment, now: number) => {
  const c = t.courses.get(a.courseId);
  return c ? [{ ...assignmentFields(a, now), course: courseView(c) }] : [];
};

export const assignmentWithUser = (t: TenantState, a: Assignment, now: number) => {
  const u = t.users.get(a.userId);
  return u ? [{ ...assignmentFields(a, now), user: shortUser(u) }] : [];
};

export const leader = (l: Leader) => ({
  coursesCount: l.coursesCount,
  resultValue: l.resultValue,
  user: shortUser(l.user),
});
