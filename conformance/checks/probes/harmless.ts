// The harmless request of each operation: one a deployment cannot turn into a change, whether or
// not it keeps the rule being probed — its target does not exist (an unknown id, `nobody…`), or its
// body is invalid. The probes (./auth.ts, ./refusals.ts, ./scope.ts) and the licence and permission
// checks send these, so they run in read-only mode too. And the seed rule each operation carries out,
// for the sources of its refusal probes.
import type { PathOperations as V1Operations } from '../../../generated/v1.ts';
import type { PathOperations as V2Operations } from '../../../generated/v2.ts';
import type { Context } from '../../context.ts';
import { UNKNOWN_ID } from '../common/discover.ts';
import type { Request } from '../common/judge.ts';

/**
 * A table with one entry per operation of each API, keyed by the generated operation types: a new
 * operation in a contract is a compile error here until it has its entry.
 */
type PerOperation<T> = { v1: Record<keyof V1Operations, T>; v2: Record<keyof V2Operations, T> };

const nobody = (ctx: Context) => `nobody${ctx.runId}`;

/** A text file where a source file is expected: refused by type even if everything else is ignored. */
const textUpload = (fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob(['lmskit conformance probe'], { type: 'text/plain' }), 'probe.txt');
  return form;
};

/** For each operation, a request with an unknown target or an invalid body. */
export const HARMLESS: PerOperation<(ctx: Context) => Request> = {
  v1: {
    listGroupAttributes: () => ({}),
    createGroupAttributes: () => ({ body: {} }),
    listUserAttributes: () => ({}),
    createUserAttributes: () => ({ body: {} }),
    createUser: () => ({ body: {} }),
    blockUser: (ctx) => ({ body: { id: nobody(ctx) } }),
    updateUser: (ctx) => ({
      params: { userId: nobody(ctx) },
      body: { email: `${nobody(ctx)}@example.invalid` },
    }),
    listUserAssignments: (ctx) => ({ params: { userId: nobody(ctx) } }),
    createGroup: () => ({ body: {} }),
    updateGroup: () => ({ params: { groupId: UNKNOWN_ID }, body: { name: 'lmskit probe' } }),
    getGroupStatistics: () => ({ params: { groupId: UNKNOWN_ID } }),
    listCourses: () => ({}),
    getCourse: () => ({ params: { courseId: UNKNOWN_ID } }),
    assignCourse: () => ({ params: { courseId: UNKNOWN_ID }, body: { users: [] } }),
    listCourseAssignments: () => ({ params: { courseId: UNKNOWN_ID } }),
    getStatistics: () => ({}),
    getLastWebhookEvent: (ctx) => ({ params: { event: `lmskit.${ctx.runId}.never` } }),
  },
  v2: {
    getCapabilities: () => ({}),
    searchUsers: () => ({ query: { query: 'a' } }),
    getUser: () => ({ params: { userId: UNKNOWN_ID } }),
    searchCourses: () => ({ query: { query: 'a' } }),
    getCourse: () => ({ params: { courseId: UNKNOWN_ID } }),
    listUserAssignments: () => ({ params: { userId: UNKNOWN_ID } }),
    listGroupAssignments: () => ({ params: { groupId: UNKNOWN_ID } }),
    listMyAssignments: () => ({}),
    getCourseUserStatistics: () => ({ params: { courseId: UNKNOWN_ID } }),
    listUserCertificates: () => ({ params: { userId: UNKNOWN_ID } }),
    getStatistics: () => ({ params: { scope: 'overview' } }),
    getLeaderboard: () => ({}),
    listAuditLog: () => ({}),
    assignUserToCourse: () => ({ params: { courseId: UNKNOWN_ID }, body: { userId: UNKNOWN_ID } }),
    assignCourseToGroups: () => ({ params: { courseId: UNKNOWN_ID }, body: { groups: [UNKNOWN_ID] } }),
    assignCourseChain: () => ({ params: { chainId: UNKNOWN_ID }, body: { users: [UNKNOWN_ID] } }),
    banUser: () => ({ body: { userId: UNKNOWN_ID } }),
    unbanUser: () => ({ params: { userId: UNKNOWN_ID } }),
    changeUserEmail: (ctx) => ({
      params: { userId: UNKNOWN_ID },
      body: { email: `${nobody(ctx)}@example.invalid` },
    }),
    cloneCourse: () => ({ body: { courseId: UNKNOWN_ID } }),
    uploadSourceMaterial: () => ({ body: textUpload() }),
    processSourceMaterial: (ctx) => ({ body: { sessionId: nobody(ctx), fileId: nobody(ctx) } }),
    generateCourse: () => ({ body: {} }),
    getGenerationJob: (ctx) => ({ params: { jobId: nobody(ctx) } }),
    refineCourse: () => ({ params: { courseId: UNKNOWN_ID }, body: { feedback: 'lmskit probe' } }),
    regenerateQuestion: () => ({ params: { questionId: UNKNOWN_ID }, body: {} }),
    regenerateLesson: () => ({ params: { lessonId: UNKNOWN_ID }, body: {} }),
  },
};

/** The harmless request of an operation (every operation of the contracts has one). */
export const harmless = (api: 'v1' | 'v2', operationId: string) => {
  const request = (HARMLESS[api] as Record<string, (ctx: Context) => Request>)[operationId];
  if (!request) throw new Error(`no harmless request for ${api} ${operationId}`);
  return request;
};

/** The seed rules an operation carries out (OPERATION_RULES). */
export const operationRules = (api: 'v1' | 'v2', operationId: string): string[] =>
  (OPERATION_RULES[api] as Record<string, string[]>)[operationId] ?? [];

/**
 * The seed rule each operation carries out, for the sources of its refusal probes. The chain and
 * regeneration operations name none: their refusals are probed, what they do is not
 * (conformance/unprobed.ts).
 */
export const OPERATION_RULES: PerOperation<string[]> = {
  v1: {
    listGroupAttributes: ['001/attributes.groups-upsert'],
    createGroupAttributes: ['001/attributes.groups-upsert'],
    listUserAttributes: ['001/attributes.users-upsert'],
    createUserAttributes: ['001/attributes.users-upsert'],
    createUser: ['001/users.create'],
    blockUser: ['001/users.ban'],
    updateUser: ['001/users.patch'],
    listUserAssignments: ['001/assignments.user-list'],
    createGroup: ['001/groups.create'],
    updateGroup: ['001/groups.update'],
    getGroupStatistics: ['001/groups.statistics'],
    listCourses: ['001/courses.list'],
    getCourse: ['001/courses.detail'],
    assignCourse: ['001/assignments.assign'],
    listCourseAssignments: ['001/assignments.course-list'],
    getStatistics: ['001/statistics.counts'],
    getLastWebhookEvent: ['001/webhooks.last'],
  },
  v2: {
    getCapabilities: ['000/capabilities.response'],
    searchUsers: ['000/find-user'],
    getUser: ['000/get-user'],
    searchCourses: ['000/find-course'],
    getCourse: ['000/get-course'],
    listUserAssignments: ['000/list-assignments'],
    listGroupAssignments: ['000/list-assignments'],
    listMyAssignments: ['000/list-my-assignments'],
    getCourseUserStatistics: ['000/compliance'],
    listUserCertificates: ['000/certificates'],
    getStatistics: ['000/statistics'],
    getLeaderboard: ['000/leaderboard'],
    listAuditLog: ['000/audit.filters'],
    assignUserToCourse: ['000/assign-training'],
    assignCourseToGroups: ['000/bulk-assign'],
    assignCourseChain: [],
    banUser: ['000/ban-user'],
    unbanUser: ['000/unban-user'],
    changeUserEmail: ['000/change-email'],
    cloneCourse: ['000/clone-course'],
    uploadSourceMaterial: ['000/upload.result'],
    processSourceMaterial: ['000/upload.result'],
    generateCourse: ['000/generate'],
    getGenerationJob: ['000/job.states'],
    refineCourse: ['000/refine'],
    regenerateQuestion: [],
    regenerateLesson: [],
  },
};
