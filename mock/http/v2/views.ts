// Platform records as /api/v2 shows them (openapi/v2/components/schemas). Users and courses are
// identified by their integer ids here.
import { statusOf } from '../../domain/assignments.ts';
import type { Assignment, Course, GenerationJob, Group, User } from '../../domain/model.ts';
import type { TenantState } from '../../domain/tenant-state.ts';

export const userSummary = (u: User) => ({
  id: u.id,
  apiId: u.apiId,
  name: u.name,
  email: u.email,
  role: u.role,
  status: u.isBanned ? ('banned' as const) : ('active' as const),
});

export const userDetail = (t: TenantState, u: User) => ({
  ...userSummary(u),
  groups: u.groupIds.flatMap((id) => {
    const g = t.groups.get(id);
    return g ? [{ id: g.id, name: g.name }] : [];
  }),
  language: u.language,
  occupation: u.occupation,
  location: u.location,
  timezone: u.timezone,
});

export const courseSummary = (c: Course) => ({
  id: c.id,
  name: c.name,
  status: c.isDraft ? ('draft' as const) : ('published' as const),
  annotation: c.annotation,
});

/** Seed 000, clone_course: the copy, always unpublished, with the course it was copied from. */
export const clonedCourse = (c: Course, sourceCourseId: number) => ({
  ...courseSummary(c),
  status: 'draft' as const,
  sourceCourseId,
});

export const courseDetail = (c: Course) => ({
  ...courseSummary(c),
  ...(c.language ? { language: c.language } : {}),
  description: c.description,
  isDraft: c.isDraft,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  publishedAt: c.publishedAt,
  settings: c.settings,
  ownerId: c.ownerId,
  structure: c.structure,
});

export const assignment = (t: TenantState, a: Assignment, now: number) => {
  const course = t.courses.get(a.courseId);
  const user = t.users.get(a.userId);
  return {
    courseId: a.courseId,
    courseName: course?.name ?? '',
    userId: a.userId,
    userName: user?.name ?? '',
    status: statusOf(a, now),
    assignedAt: a.assignedAt,
    startAt: a.startAt,
    deadlineAt: a.deadlineAt,
    startedAt: a.startedAt,
    finishedAt: a.finishedAt,
    progressValue: a.progressValue,
    resultValue: a.resultValue,
  };
};

export const assignmentList = (t: TenantState, list: Assignment[], now: number) => ({
  assignments: list.map((a) => assignment(t, a, now)),
  totalCount: list.length,
});

export const groupBrief = (g: Group) => ({ id: g.id, name: g.name, usersCount: g.memberIds.length });

/**
 * The job in the shape its status names (the contract's `GenerationJob` is one of three, told apart
 * by `status`): a completed job carries its `result`, a failed one its `error`, a queued one neither.
 */
export const job = (j: GenerationJob) => {
  const common = { jobId: j.id, createdAt: j.createdAt };
  if (j.status === 'completed' && j.result)
    return { ...common, status: 'completed' as const, result: j.result };
  if (j.status === 'failed' && j.error) return { ...common, status: 'failed' as const, error: j.error };
  if (j.status === 'queued') return { ...common, status: 'queued' as const };
  throw new Error(
    `generation job ${j.id} is ${j.status} without its ${j.status === 'failed' ? 'error' : 'result'}`,
  );
};
