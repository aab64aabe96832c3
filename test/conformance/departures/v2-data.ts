// Departures of the v2 data checks (conformance/checks/v2/read-content.ts, write-effects.ts):
// answers that lack content seed 000 states, and write options accepted and not honoured.
import type { Departure, Json } from './kit.ts';
import {
  dropFields,
  onAnswer,
  onRequest,
  V2,
  V2_ASSIGN_GROUPS,
  V2_USER,
  V2_USER_ASSIGNMENTS,
  V2_USER_CERTIFICATES,
} from './kit.ts';

const ASSIGN_USER = /^\/api\/v2\/courses\/\d+\/assignments\/users$/;

export const V2_DATA_DEPARTURES: Departure[] = [
  {
    name: 'get_user without group memberships',
    seed: '000 get_user: "name, e-mail, role, group memberships, status"',
    catches: 'v2.users.detail.content',
    rewrites: () => [
      onAnswer('GET', V2_USER, (b) => {
        delete b.groups;
      }),
    ],
  },
  {
    name: 'get_user without a status',
    seed: '000 get_user: "name, e-mail, role, group memberships, status"',
    catches: 'v2.users.detail.content',
    rewrites: () => [
      onAnswer('GET', V2_USER, (b) => {
        delete b.status;
      }),
    ],
  },
  {
    name: 'find_course answers courses without their annotation',
    seed: '000 find_course: "courses with id, name, status, annotation"',
    catches: 'v2.courses.search.fields',
    rewrites: () => [
      onAnswer('GET', `${V2}/courses`, (b) => {
        for (const c of b.courses ?? []) delete c.annotation;
      }),
    ],
  },
  {
    name: 'find_course answers courses without their status',
    seed: '000 find_course: "courses with id, name, status, annotation"',
    catches: 'v2.courses.search.status',
    rewrites: () => [
      onAnswer('GET', `${V2}/courses`, (b) => {
        for (const c of b.courses ?? []) delete c.status;
      }),
    ],
  },
  {
    name: 'get_compliance_status ignores groupId',
    seed: '000 get_compliance_status: "`courseId` integer required; `groupId` integer optional"',
    catches: 'v2.statistics.compliance.group',
    rewrites: () => [
      onRequest('GET', /^\/api\/v2\/courses\/\d+\/statistics\/users$/, (req) => req.query.delete('groupId')),
    ],
  },
  {
    name: 'certificates answered without expiry dates',
    seed: '000 list_certificates: "certificates with issue dates and, when set, expiry dates"',
    catches: 'v2.users.certificates.expiry',
    rewrites: () => [
      onAnswer('GET', V2_USER_CERTIFICATES, (b) => {
        for (const c of b.certificates ?? []) c.expiresAt = null;
      }),
    ],
  },
  {
    name: 'assign_training drops the deadline',
    seed: '000 assign_training: "`<deadline>` integer optional, Unix seconds, omitted = no deadline"',
    catches: 'v2.assign.user.deadline',
    rewrites: () => [dropFields('POST', ASSIGN_USER, 'deadlineAt')],
  },
  {
    name: 'assign_training sets a deadline where none is given',
    seed: '000 assign_training: "`<deadline>` integer optional, Unix seconds, omitted = no deadline"',
    catches: 'v2.assign.user.deadline',
    rewrites: () => [
      onRequest('POST', ASSIGN_USER, (req) => {
        const body = req.json as Json;
        if (body && body.deadlineAt === undefined)
          body.deadlineAt = Math.floor(Date.now() / 1000) + 30 * 86_400;
      }),
    ],
  },
  {
    name: 'assign_training ignores the start',
    seed: '000 assign_training: "`<start>` integer optional, Unix seconds, omitted = assign immediately"',
    catches: 'v2.assign.user.start',
    rewrites: () => [dropFields('POST', ASSIGN_USER, 'startAt')],
  },
  {
    name: 'bulk_assign drops the deadline',
    seed: '000 bulk_assign: "`<deadline>` integer optional, Unix seconds, applied to all"',
    catches: 'v2.assign.groups.deadline',
    rewrites: () => [dropFields('POST', V2_ASSIGN_GROUPS, 'deadlineAt')],
  },
  {
    name: "a ban deletes the user's assignments",
    seed: '000 ban_user: "revokes login and course access, keeps history"',
    catches: 'v2.users.ban.keeps-history',
    rewrites: () => {
      const banned = new Set<number>();
      return [
        onAnswer('POST', `${V2}/users/banned`, (_b, req) => {
          banned.add(Number((req.json as Json)?.userId));
        }),
        onAnswer('GET', V2_USER_ASSIGNMENTS, (b, req) => {
          if (!banned.has(Number(req.path.split('/')[4]))) return;
          b.assignments = [];
          b.totalCount = 0;
        }),
      ];
    },
  },
];
