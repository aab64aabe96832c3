// The Integration REST API v1 (seed 001) over the platform: one handler per operation of
// openapi/v1, routed and validated by the contract. Handlers only translate: rules live in the domain.
import type { Response } from 'express';
import type { PathOperations } from '../../../generated/v1.ts';
import { courseById, coursesInOrder } from '../../domain/courses.ts';
import { envelope, lastEvent } from '../../domain/events.ts';
import { groupById } from '../../domain/groups.ts';
import type { Platform } from '../../domain/platform.ts';
import { groupStatistics, platformStatistics } from '../../domain/statistics.ts';
import { userByApiId } from '../../domain/users.ts';
import { sendInvalid } from '../apis.ts';
import { contractRouter } from '../contract.ts';
import { contextOf, required } from '../request-context.ts';
import { type Handlers, ok } from '../typed-handlers.ts';
import { sendV1Error } from './errors.ts';
import * as view from './views.ts';

/** Seed 001, "Limits": courses per page. */
export const COURSES_PER_PAGE = 20;

export interface V1Options {
  spec: Record<string, unknown>;
  platform: Platform;
  onResponseMismatch?: Parameters<typeof contractRouter>[0]['onResponseMismatch'];
  /** The answer to an error thrown while an answer is made (mock/app.ts), checked as answers are. */
  answerError?: Parameters<typeof contractRouter>[0]['answerError'];
}

export function v1Router({ spec, platform, onResponseMismatch, answerError }: V1Options) {
  const tenant = (res: Response) => required(res, 'tenant');
  const id = (res: Response) => tenant(res).id;
  const run = platform.run.bind(platform);

  const handlers: Handlers<PathOperations> = {
    listGroupAttributes: (_req, res) => ok(view.groupAttributes(tenant(res))),
    listUserAttributes: (_req, res) => ok(view.userAttributes(tenant(res))),
    createGroupAttributes: (_req, res, { body }) =>
      ok(
        run('upsertAttributes', { tenantId: id(res), scope: 'group', inputs: body }).map(view.groupAttribute),
      ),
    createUserAttributes: (_req, res, { body }) =>
      ok(run('upsertAttributes', { tenantId: id(res), scope: 'user', inputs: body }).map(view.userAttribute)),

    createUser: (_req, res, { body }) => ({
      status: 201,
      body: view.user(run('createUser', { tenantId: id(res), input: body })),
    }),
    updateUser: (_req, res, { params, body }) => {
      run('updateUser', { tenantId: id(res), apiId: String(params.userId), input: body });
      return { status: 200 };
    },
    blockUser: (_req, res, { body }) =>
      ok(view.bannedUser(run('banUser', { tenantId: id(res), apiId: body.id }))),

    createGroup: (_req, res, { body }) => ({
      status: 201,
      body: view.group(run('createGroup', { tenantId: id(res), input: body })),
    }),
    updateGroup: (_req, res, { params, body }) =>
      ok(view.group(run('updateGroup', { tenantId: id(res), groupId: Number(params.groupId), input: body }))),
    getGroupStatistics: (_req, res, { params }) => {
      const t = tenant(res);
      const s = groupStatistics(t, groupById(t, Number(params.groupId)));
      return ok({
        group: view.group(s.group),
        usersWithoutActivity: s.usersWithoutActivity.map(view.shortUser),
        usersWithoutResults: s.usersWithoutResults.map(view.shortUser),
        leaders: s.leaders.map(view.leader),
      });
    },

    listCourses: (_req, res, { query }) => {
      const all = coursesInOrder(tenant(res));
      const offset = Number(query.offset ?? 0);
      return ok({
        courses: all.slice(offset, offset + COURSES_PER_PAGE).map(view.course),
        totalCount: all.length,
      });
    },
    getCourse: (_req, res, { params }) =>
      ok(view.courseDetail(courseById(tenant(res), Number(params.courseId)))),

    assignCourse: (_req, res, { params, body }) => {
      const result = run('assignCourse', {
        tenantId: id(res),
        courseId: Number(params.courseId),
        users: body.users ?? [],
        groups: body.groups ?? [],
        assignAt: body.assignAt,
        deadlineAt: body.deadlineAt,
      });
      return ok({ users: result.users.map(view.shortUser), groups: result.groups.map(view.groupSummary) });
    },
    listCourseAssignments: (_req, res, { params }) => {
      const t = tenant(res);
      const c = courseById(t, Number(params.courseId));
      const assignments = t
        .assignmentsOfCourse(c.id)
        .flatMap((a) => view.assignmentWithUser(t, a, platform.now()));
      return ok({ assignments, totalCount: assignments.length });
    },
    listUserAssignments: (_req, res, { params }) => {
      const t = tenant(res);
      const u = userByApiId(t, String(params.userId));
      return ok({
        assignments: t
          .assignmentsOfUser(u.id)
          .flatMap((a) => view.assignmentWithCourse(t, a, platform.now())),
      });
    },

    getStatistics: (_req, res) => {
      const s = platformStatistics(tenant(res));
      return ok({
        statistics: s.statistics,
        usersWithoutActivity: s.usersWithoutActivity.map(view.shortUser),
        usersWithoutResults: s.usersWithoutResults.map(view.shortUser),
        leaders: s.leaders.map(view.leader),
        unassignedCourses: s.unassignedCourses.map(view.course),
      });
    },
    getLastWebhookEvent: (_req, res, { params }) => {
      const event = lastEvent(tenant(res), String(params.event), platform.now());
      if (!event)
        return {
          status: 404,
          body: { status: 404, message: `No ${params.event} event in the last 30 days` },
        };
      return ok(envelope(event));
    },
  };

  return contractRouter({
    spec,
    handlers,
    // With --fsync a write's answer waits for its line to be on disk (docs/mock.md, Durable state).
    durability: platform,
    // Seed 001, "Authentication": every endpoint needs the site API key; it selects the tenant.
    before: (req, res) => {
      const key = req.get('x-api-key');
      const t = key ? platform.tenantBySiteKey(key) : undefined;
      if (!t) {
        sendV1Error(res, {
          status: 401,
          message: key ? 'Invalid X-API-KEY' : 'Missing X-API-KEY header: send the site API key',
        });
        return false;
      }
      contextOf(res).tenant = t;
      return true;
    },
    invalid: (res, problems) => sendInvalid('v1', res, problems),
    // A read answers the same until the state or the virtual second changes.
    cacheBy: { epoch: () => `${platform.version}|${platform.now()}`, caller: (res) => tenant(res).id },
    onResponseMismatch,
    answerError,
  });
}
