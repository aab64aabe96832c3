// The /api/v2 backend of the MCP tools (seed 000): one handler per operation of openapi/v2, routed
// and validated by the contract, behind the pipeline of ./pipeline. What each operation needs —
// scope, permission, licence, AI quota — is read from the operation's `x-` fields in the contract.
import type { Response } from 'express';
import type { PathOperations } from '../../../generated/v2.ts';
import { clientAddressOf, type TrustProxy } from '../../../lib/client-address.ts';
import { loadTools } from '../../../lib/tool-schemas.ts';
import { Extractor } from '../../ai/extract.ts';
import { callableTools, type ToolNeeds } from '../../domain/access.ts';
import { jobById } from '../../domain/ai.ts';
import { assignmentsOfGroup, certificatesOfUser } from '../../domain/assignments.ts';
import { readAuditLog } from '../../domain/audit.ts';
import { courseById } from '../../domain/courses.ts';
import { groupById } from '../../domain/groups.ts';
import type { Platform } from '../../domain/platform.ts';
import { courseUserStatistics, leaderboard, type StatisticsScope, statistics } from '../../domain/reports.ts';
import { searchCourses, searchUsers } from '../../domain/search.ts';
import { userById } from '../../domain/users.ts';
import { sendInvalid } from '../apis.ts';
import { contractRouter } from '../contract.ts';
import { errorAnswer, sendError } from '../error-body.ts';
import { contextOf, required } from '../request-context.ts';
import { type Handlers, ok } from '../typed-handlers.ts';
import type { FailedLoginLimiter, RateLimiter } from './pipeline/counters.ts';
import { isFailure, Pipeline, type PipelineLimits, type Verdict } from './pipeline/index.ts';
import { extractionLimits, receiveUpload } from './upload.ts';
import * as view from './views.ts';

export interface V2Options {
  spec: Record<string, unknown>;
  platform: Platform;
  limits?: PipelineLimits;
  /** The per-key rate limiter, when the admin API shares it. */
  rateLimiter?: RateLimiter;
  /** The failed logins, when they are counted in a shared store. */
  failedLogins?: FailedLoginLimiter;
  onResponseMismatch?: Parameters<typeof contractRouter>[0]['onResponseMismatch'];
  /** The answer to an error thrown while an answer is made (mock/app.ts), checked as answers are. */
  answerError?: Parameters<typeof contractRouter>[0]['answerError'];
}

/** The tool definitions' needs, for the capabilities filter (mcp-schema/, read once). */
const TOOL_NEEDS: ToolNeeds[] = loadTools().map((t) => ({
  name: t.name,
  scope: t['x-scope'],
  permission: t['x-permission'],
  licence: t['x-licence'],
}));

/** An optional query parameter as its text. */
const optionalText = (value: unknown) => (value === undefined ? undefined : String(value));

/** Answers a refusal of the pipeline, or keeps the caller it admitted for the handler. */
function admitted(res: Response, verdict: Verdict): boolean | Promise<boolean> {
  if (verdict instanceof Promise) return verdict.then((v) => admitted(res, v) as boolean);
  if (isFailure(verdict)) {
    sendError(res, verdict);
    return false;
  }
  contextOf(res).caller = verdict;
  return true;
}

export function v2Router({
  spec,
  platform,
  limits,
  rateLimiter,
  failedLogins,
  onResponseMismatch,
  answerError,
}: V2Options) {
  const pipeline = new Pipeline(platform, limits, rateLimiter, failedLogins);
  platform.onLoad(() => platform.alongside(() => pipeline.forgetCounters()));
  const extractor = new Extractor(extractionLimits(spec));
  /** Uploads received before their write's turn (`receive`), by the answer they are for. */
  const uploads = new WeakMap<Response, Awaited<ReturnType<typeof receiveUpload>>>();
  const caller = (res: Response) => required(res, 'caller');
  const who = (res: Response) => ({ tenantId: caller(res).tenant.id, actorId: caller(res).user.id });
  const run = platform.run.bind(platform);
  const now = () => platform.now();
  /** An AI call that succeeded counts against the key's quota for the day (seed 000, "Limits"). */
  const aiCall = (res: Response) => ({ ...who(res), quotaKeyId: caller(res).key.id });

  const handlers: Handlers<PathOperations> = {
    getCapabilities: (_req, res) => {
      const c = caller(res);
      return {
        status: 200,
        body: {
          tier: c.tenant.mcpAccess,
          scopes: c.scopes,
          user: { id: c.user.id, name: c.user.name, email: c.user.email },
          tools: callableTools(c, TOOL_NEEDS),
          resources: [],
        },
      };
    },

    searchUsers: (_req, res, { query }) => {
      const { found, total } = searchUsers(caller(res).tenant, String(query.query), Number(query.limit));
      return ok({ users: found.map(view.userSummary), totalCount: total });
    },
    getUser: (_req, res, { params }) => {
      const t = caller(res).tenant;
      return ok(view.userDetail(t, userById(t, Number(params.userId))));
    },
    searchCourses: (_req, res, { query }) => {
      const { found, total } = searchCourses(caller(res).tenant, String(query.query), Number(query.limit));
      return ok({ courses: found.map(view.courseSummary), totalCount: total });
    },
    getCourse: (_req, res, { params }) =>
      ok(view.courseDetail(courseById(caller(res).tenant, Number(params.courseId)))),

    listUserAssignments: (_req, res, { params }) => {
      const t = caller(res).tenant;
      return ok(view.assignmentList(t, t.assignmentsOfUser(userById(t, Number(params.userId)).id), now()));
    },
    listGroupAssignments: (_req, res, { params }) => {
      const t = caller(res).tenant;
      return ok(view.assignmentList(t, assignmentsOfGroup(t, groupById(t, Number(params.groupId))), now()));
    },
    listMyAssignments: (_req, res) => {
      const { tenant, user } = caller(res);
      return ok(view.assignmentList(tenant, tenant.assignmentsOfUser(user.id), now()));
    },
    getCourseUserStatistics: (_req, res, { params, query }) =>
      ok(
        courseUserStatistics(
          caller(res).tenant,
          Number(params.courseId),
          query.groupId === undefined ? null : Number(query.groupId),
          now(),
        ),
      ),
    listUserCertificates: (_req, res, { params }) => {
      const t = caller(res).tenant;
      return ok({ certificates: certificatesOfUser(t, userById(t, Number(params.userId)).id) });
    },
    getStatistics: (_req, res, { params }) => {
      const scope = params.scope as StatisticsScope;
      return ok({ scope, generatedAt: now(), metrics: statistics(caller(res).tenant, scope, now()) });
    },
    getLeaderboard: (_req, res, { query }) =>
      ok({ leaders: leaderboard(caller(res).tenant, Number(query.limit)) }),
    listAuditLog: (_req, res, { query }) => {
      const limit = Number(query.limit);
      const offset = Number(query.offset);
      const { entries, total } = readAuditLog(caller(res).tenant, {
        authorId: query['fields[author]'] === undefined ? undefined : Number(query['fields[author]']),
        from: optionalText(query['fields[createdAt][from]']),
        to: optionalText(query['fields[createdAt][to]']),
        limit,
        offset,
      });
      return ok({ entries, totalCount: total, limit, offset });
    },

    assignUserToCourse: (_req, res, { params, body }) => {
      const t = caller(res).tenant;
      const { assignment, created } = run('assignUserV2', {
        ...who(res),
        courseId: Number(params.courseId),
        input: body,
      });
      return ok({ assigned: created, assignment: view.assignment(t, assignment, now()) });
    },
    assignCourseToGroups: (_req, res, { params, body }) => {
      const result = run('assignGroupsV2', {
        ...who(res),
        courseId: Number(params.courseId),
        groups: body.groups,
        deadlineAt: body.deadlineAt,
      });
      return ok({
        courseId: result.courseId,
        groups: result.groups.map(view.groupBrief),
        usersAssigned: result.usersAssigned,
        bannedSkipped: result.bannedSkipped,
      });
    },
    assignCourseChain: (_req, res, { params, body }) =>
      ok(
        run('assignChain', {
          ...who(res),
          chainId: Number(params.chainId),
          users: body.users,
          groups: body.groups,
          deadlineAt: body.deadlineAt,
        }),
      ),
    banUser: (_req, res, { body }) => {
      const user = run('banV2', { ...who(res), userId: body.userId });
      return ok({ userId: user.id, status: 'banned' });
    },
    unbanUser: (_req, res, { params }) => {
      const user = run('unbanV2', { ...who(res), userId: Number(params.userId) });
      return ok({ userId: user.id, status: 'active' });
    },
    changeUserEmail: (_req, res, { params, body }) => {
      const user = run('changeEmailV2', { ...who(res), userId: Number(params.userId), email: body.email });
      return ok({ userId: user.id, email: user.email, notificationSent: true });
    },
    cloneCourse: (_req, res, { body }) => {
      const course = run('cloneV2', { ...who(res), courseId: body.courseId });
      return { status: 201 as const, body: view.clonedCourse(course, body.courseId) };
    },

    uploadSourceMaterial: (_req, res) => {
      const upload = uploads.get(res);
      if (!upload) throw new Error('the upload was not received: the receive step has not run');
      if ('status' in upload) return errorAnswer(upload);
      const { sessionId, file } = run('recordUpload', {
        tenantId: caller(res).tenant.id,
        ...upload,
        keepCharacters: extractor.limits.storedTextCharacters,
      });
      return {
        status: 201 as const,
        body: {
          sessionId,
          fileId: file.id,
          filename: file.filename,
          mimeType: file.mimeType,
          size: file.size,
        },
      };
    },
    processSourceMaterial: (_req, res, { body }) =>
      ok(
        run('processUpload', {
          tenantId: caller(res).tenant.id,
          sessionId: body.sessionId,
          fileId: body.fileId,
        }),
      ),
    generateCourse: (_req, res, { body }) => {
      const job = run('createJob', { ...aiCall(res), input: body });
      return {
        status: 202 as const,
        body: {
          jobId: job.id,
          status: 'queued',
          message:
            'Generation started. Poll get_course_generation_status with this jobId every 3-5 seconds; it takes about 10-30 seconds.',
        },
      };
    },
    getGenerationJob: (_req, res, { params }) => {
      // A job whose time has come was settled before this request was read (Platform.settleDueJobs):
      // polling only reads. Any write key of the tenant reads any of its jobs (x-assumed in openapi/v2).
      return ok(view.job(jobById(caller(res).tenant, String(params.jobId))));
    },
    refineCourse: (_req, res, { params, body }) => {
      const result = run('refineCourse', {
        ...aiCall(res),
        courseId: Number(params.courseId),
        feedback: body.feedback,
      });
      return ok(result);
    },
    regenerateQuestion: (_req, res, { params, body }) => {
      const result = run('regenerateQuestion', {
        ...aiCall(res),
        questionId: Number(params.questionId),
        feedback: body?.feedback,
      });
      return ok(result);
    },
    regenerateLesson: (_req, res, { params, body }) => {
      const result = run('regenerateLesson', {
        ...aiCall(res),
        lessonId: Number(params.lessonId),
        feedback: body?.feedback,
      });
      return ok(result);
    },
  };

  return contractRouter({
    spec,
    handlers,
    // With --fsync a write's answer waits for its line to be on disk (docs/mock.md, Durable state).
    durability: platform,
    // The key before the body is read; what the key may do after (the pipeline's two halves).
    before: (req, res) =>
      admitted(
        res,
        pipeline.authenticate(
          // Node joins a repeated custom header into one string; never an array.
          req.headers['x-mcp-key'] as string | undefined,
          // Express compiles --trust-proxy into `trust proxy fn`; the address is the kit's one reading.
          () =>
            clientAddressOf(
              req.socket.remoteAddress,
              req.headers['x-forwarded-for'] as string | undefined,
              req.app.get('trust proxy fn') as TrustProxy,
            ) ?? 'unknown',
        ),
      ),
    admit: (_req, res, operation) => admitted(res, pipeline.admit(caller(res), operation)),
    // The upload is received and read before the write's turn: a slow client holds no other write.
    receive: (req, res, operation) =>
      operation.operationId === 'uploadSourceMaterial'
        ? receiveUpload(req, extractor).then((upload) => {
            uploads.set(res, upload);
          })
        : undefined,
    invalid: (res, problems) => sendInvalid('v2', res, problems),
    onResponseMismatch,
    answerError,
    // A read answers the same for the same key until the state or the virtual second changes; the
    // pipeline (auth, limits, lastUsedAt) still runs for every request.
    cacheBy: { epoch: () => `${platform.version}|${platform.now()}`, caller: (res) => caller(res).key.id },
  });
}
