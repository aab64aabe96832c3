// The admin API's read operations for browsing a tenant (the console's Data and Time pages):
// tenants, users, groups and courses a page at a time, a user's assignments, the generation jobs.
// Paging happens here, on the server, so the 100 000-user scale seed never travels whole.
import type { PathOperations } from '../../../generated/admin.ts';
import { certificateOf, statusOf } from '../../domain/assignments.ts';
import type { Assignment, User } from '../../domain/model.ts';
import type { Platform } from '../../domain/platform.ts';
import { searchUsers } from '../../domain/search.ts';
import type { TenantState } from '../../domain/tenant-state.ts';
import { userById } from '../../domain/users.ts';
import { errorAnswer } from '../error-body.ts';
import { type Handlers, ok } from '../typed-handlers.ts';
import { userIdOf } from './user-ref.ts';

type DataOperation =
  | 'listTenants'
  | 'listTenantUsers'
  | 'getTenantUser'
  | 'listTenantGroups'
  | 'listTenantCourses'
  | 'listTenantAssignments'
  | 'listAiJobs';

export const tenantView = (t: TenantState) => ({
  id: t.id,
  name: t.name,
  siteApiKey: t.siteApiKey,
  mcpLicensed: t.mcpLicensed,
  mcpAccess: t.mcpAccess,
  mcpAiAccess: t.mcpAiAccess,
});

export const assignmentView = (t: TenantState, a: Assignment, now: number) => ({
  userId: a.userId,
  courseId: a.courseId,
  assignedAt: a.assignedAt,
  startedAt: a.startedAt,
  finishedAt: a.finishedAt,
  deadlineAt: a.deadlineAt,
  progressValue: a.progressValue,
  resultValue: a.resultValue,
  status: statusOf(a, now),
  certificateId: certificateOf(t, a.userId, a.courseId)?.id ?? null,
});

/** One page of `records` that `matches`, ordered as given (by id), and how many match in all. */
function page<T>(records: Iterable<T>, matches: (r: T) => boolean, offset: number, limit: number) {
  const items: T[] = [];
  let total = 0;
  for (const r of records) {
    if (!matches(r)) continue;
    if (total >= offset && items.length < limit) items.push(r);
    total++;
  }
  return { items, total };
}

/** A learner's or a course's assignments (or the one of both), through the tenant's indexes, by id. */
function assignmentsOf(t: TenantState, userId: number | undefined, courseId: number | undefined) {
  const byId = (a: Assignment, b: Assignment) => a.id - b.id;
  if (userId !== undefined && courseId !== undefined) {
    const one = t.assignment(userId, courseId);
    return one ? [one] : [];
  }
  if (userId !== undefined) return t.assignmentsOfUser(userId).sort(byId);
  return t.assignmentsOfCourse(courseId as number).sort(byId);
}

/**
 * One page of the tenant's assignments with this status, and how many have it: every row is looked
 * at, as the status depends on the moment asked, but only the page's records are made.
 */
function pageByStatus(t: TenantState, status: string, now: number, offset: number, limit: number) {
  const ids: number[] = [];
  let total = 0;
  t.assignments.forEachRow((a) => {
    if (statusOf(a, now) !== status) return;
    if (total >= offset && ids.length < limit) ids.push(a.id);
    total++;
  });
  return { items: ids.map((id) => t.assignments.get(id) as Assignment), total };
}

const contains = (query: unknown) => {
  const q = typeof query === 'string' ? query.toLowerCase() : '';
  return (text: string) => !q || text.toLowerCase().includes(q);
};

export function dataHandlers(platform: Platform): Pick<Handlers<PathOperations>, DataOperation> {
  const tenant = (input: { params: { tenantId: string } }) => platform.tenant(input.params.tenantId);
  const offsetOf = (input: { query: { offset?: number } }) => Number(input.query.offset ?? 0);
  return {
    listTenants: (_req, _res) =>
      ok({
        tenants: [...platform.tenants.values()].sort((a, b) => a.id.localeCompare(b.id)).map(tenantView),
      }),

    listTenantUsers: (_req, _res, input) => {
      const t = tenant(input);
      const q = typeof input.query.query === 'string' ? input.query.query : '';
      const limit = input.query.limit === undefined ? Number.POSITIVE_INFINITY : Number(input.query.limit);
      const offset = offsetOf(input);
      const answer = (users: User[], total: number) =>
        ok({
          users: users.map((u) => ({ id: u.id, apiId: u.apiId, name: u.name, email: u.email, role: u.role })),
          total,
        });
      // The v2 search's index, and users made for the page alone: reading every user took 0.3 s a
      // page and 0.65 s a search at a million users.
      if (!q) return answer(t.users.slice(offset, limit), t.users.size);
      const { found, total } = searchUsers(t, q, offset + limit);
      return answer(found.slice(offset), total);
    },

    getTenantUser: (_req, _res, input) => {
      const t = tenant(input);
      // Either form of UserRef, as every admin path that takes a user (user-ref.ts).
      const u = userById(t, userIdOf(t, input.params.userId));
      const now = platform.now();
      return ok({
        user: { id: u.id, apiId: u.apiId, name: u.name, email: u.email, role: u.role },
        banned: u.isBanned,
        groups: u.groupIds.flatMap((id) => {
          const g = t.groups.get(id);
          return g ? [{ id: g.id, name: g.name }] : [];
        }),
        assignments: t
          .assignmentsOfUser(u.id)
          .sort((a, b) => a.assignedAt - b.assignedAt || a.id - b.id)
          .map((a) => assignmentView(t, a, now)),
      });
    },

    listTenantGroups: (_req, _res, input) => {
      const t = tenant(input);
      const named = contains(input.query.query);
      const { items, total } = page(
        t.groups.values(),
        (g) => named(g.name),
        offsetOf(input),
        Number(input.query.limit),
      );
      return ok({
        groups: items.map((g) => ({
          id: g.id,
          name: g.name,
          parentId: g.parentId,
          members: g.memberIds.length,
        })),
        total,
      });
    },

    listTenantCourses: (_req, _res, input) => {
      const t = tenant(input);
      const named = contains(input.query.query);
      const { items, total } = page(
        t.courses.values(),
        (c) => named(c.name),
        offsetOf(input),
        Number(input.query.limit),
      );
      return ok({
        courses: items.map((c) => ({
          id: c.id,
          name: c.name,
          isDraft: c.isDraft,
          publishedAt: c.publishedAt,
          ownerId: c.ownerId,
          assigned: t.assignmentCountOfCourse(c.id),
        })),
        total,
      });
    },

    listTenantAssignments: (_req, _res, input) => {
      const t = tenant(input);
      const { query } = input;
      const userId = query.userId === undefined ? undefined : userIdOf(t, query.userId);
      const courseId = query.courseId === undefined ? undefined : Number(query.courseId);
      if (courseId !== undefined && !t.courses.has(courseId))
        return errorAnswer({ status: 404, code: 'NOT_FOUND', message: `Course ${courseId} not found.` });
      const now = platform.now();
      const offset = offsetOf(input);
      const limit = Number(query.limit);
      // Without a filter the count is known and a page reads its own rows alone; with a learner or a
      // course, their few assignments are read; with a status alone, every row, without records.
      const { items, total } =
        userId !== undefined || courseId !== undefined
          ? page(
              assignmentsOf(t, userId, courseId),
              (a) => query.status === undefined || statusOf(a, now) === query.status,
              offset,
              limit,
            )
          : query.status !== undefined
            ? pageByStatus(t, query.status, now, offset, limit)
            : { items: t.assignments.slice(offset, limit), total: t.assignmentCount() };
      return ok({ assignments: items.map((a) => assignmentView(t, a, now)), total });
    },

    listAiJobs: (_req, _res, input) => {
      const t = tenant(input);
      const jobs = [...t.jobs.values()]
        .reverse()
        .slice(0, Number(input.query.limit))
        // A job whose time has come was settled before this request was read (Platform.settleDueJobs).
        .map((j) => ({
          id: j.id,
          status: j.status,
          createdAt: j.createdAt,
          completesAt: j.completesAt,
          userId: j.userId,
          prompt: j.prompt,
          courseId: j.result?.courseId ?? null,
          error: j.error?.message ?? null,
        }));
      return ok({ jobs });
    },
  };
}
