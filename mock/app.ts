// The mock as an Express app: `/openapi/v1`, `/api/v2` and `/__admin` over one platform. Only
// main.ts listens; tests build the app in-process.

import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError } from './domain/errors.ts';
import { CommandLogError, IdsUsedUp, type Platform } from './domain/platform.ts';
import { adminRouter, type StartState } from './http/admin/router.ts';
import {
  API_PREFIXES,
  type ApiName,
  apiNamed,
  apiOf,
  domainErrorAnswer,
  errorBodyOf,
  sendApiError,
} from './http/apis.ts';
import { consoleRouter } from './http/console.ts';
import { type AnswerObject, sendAnswer } from './http/contract.ts';
import { docsRouter, type LoadDocs } from './http/docs.ts';
import type { ApiError } from './http/error-body.ts';
import { FaultInjector } from './http/faults.ts';
import { mockAllowedHosts, mockHostCheck } from './http/hosts.ts';
import { sendIndex } from './http/index-page.ts';
import { callerOfCredentials, type JournalStore, RequestJournal } from './http/journal.ts';
import { JSON_BODY_LIMIT } from './http/json-body.ts';
import { methodsOfPaths } from './http/methods.ts';
import { INDEX_POLICY, pageHeaders } from './http/page-headers.ts';
import { v1Router } from './http/v1/router.ts';
import type { LimitCounters } from './http/v2/pipeline/counters.ts';
import {
  DEFAULT_FAILED_AUTH_MAX,
  DEFAULT_FAILED_AUTH_WINDOW_SECONDS,
} from './http/v2/pipeline/failed-auth-limit.ts';
import type { PipelineLimits } from './http/v2/pipeline/index.ts';
import { DEFAULT_REQUESTS_PER_MINUTE, KeyRateLimiter } from './http/v2/pipeline/rate-limit.ts';
import { v2Router } from './http/v2/router.ts';
import { loadSpecs, type Specs } from './specs.ts';

export interface AppOptions {
  platform: Platform;
  adminToken: string;
  version?: string;
  /** Check every JSON answer against the contract and answer 500 on a departure (on in tests). */
  validateResponses?: boolean;
  specs?: Specs;
  /** Rate limits of /api/v2 (docs/adr-0002: 120 per key per minute; 20 failed logins per IP in 5 minutes). */
  limits?: PipelineLimits;
  /** The docs site, served at /docs/ when given; loaded on the first request there. */
  docs?: LoadDocs;
  /**
   * Which peers may name the client in `X-Forwarded-For` (Express's `trust proxy`: addresses, subnets,
   * `loopback`; false for none). Default `loopback`: the kit's own MCP tool server, on this machine,
   * names each of its clients, so failed logins count per client rather than per tool server.
   */
  trustProxy?: string | false;
  /** Requests the journal keeps (`--journal-size`, default 1000). */
  journalSize?: number;
  /**
   * Where the journal keeps them, for its size: a shared store's journal (`PostgresStore.journal`;
   * docs/mock.md, Shared sandbox), which every replica lists. Without it, this process's memory.
   */
  journalStore?: (size: number) => JournalStore;
  /**
   * Host names (no port) the Host header may carry (`mockAllowedHosts`: loopback names, the address
   * listened on, `--allowed-hosts`); any other is refused 403 on every path (DNS rebinding). Default:
   * the loopback names.
   */
  allowedHosts?: string[];
  /**
   * What the mock started from, which a reset that names no seed brings back: a seed's name (`demo`,
   * `empty`, `scale`) or fixtures. Default: the demo seed.
   */
  start?: StartState;
  /**
   * Where the /api/v2 rate limit and failed logins count: a shared store's (docs/mock.md, Shared
   * sandbox), one count for every replica. In this process when not given.
   */
  counters?: LimitCounters;
}

/** Answers in the error shape of the API the request was for (http/apis.ts). */
const sendError = (req: Request, res: Response, status: number, code: ApiError['code'], message: string) =>
  sendApiError(apiOf(req.originalUrl), res, status, code, message);

export function createApp(options: AppOptions) {
  const { platform } = options;
  const specs = options.specs ?? loadSpecs();
  const faults = new FaultInjector();
  if (platform.sharedLog) faults.share(platform.sharedLog);
  const journal = new RequestJournal({
    size: options.journalSize,
    specs,
    now: () => platform.now(),
    identify: (req) => callerOfCredentials(platform, req),
    version: options.version ?? '0.0.0',
    store: options.journalStore,
  });
  const mismatch = (api: ApiName) =>
    options.validateResponses
      ? (res: Response, status: number, errors: string[], operation: Record<string, unknown>) => {
          const message = `Response ${status} of ${String(operation.operationId)} does not match the contract: ${errors.join('; ')}`;
          sendApiError(api, res, 500, 'CONTRACT_VIOLATION', message);
        }
      : undefined;

  // The v2 pipeline counts requests with it, the admin API shows and resets them: in memory, for this
  // run, or in a shared store for every replica (where time is the database's clock).
  const { limits = {}, counters } = options;
  const rateLimiter = counters
    ? counters.rateLimiter(limits.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE)
    : new KeyRateLimiter(limits.requestsPerMinute, limits.nowMs);
  const failedLogins = counters?.failedLogins(
    limits.failedAuthMax ?? DEFAULT_FAILED_AUTH_MAX,
    limits.failedAuthWindowSeconds ?? DEFAULT_FAILED_AUTH_WINDOW_SECONDS,
  );
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? 'loopback');
  // Answers change with every write; an ETag would cost a hash of every body for nothing.
  app.set('etag', false);
  // Flat query keys: v2 names parameters literally `fields[author]`, not as nested objects.
  app.set('query parser', 'simple');
  app.use(journal.record);
  // Before anything answers: a page of another site rebound to this address reads nothing, runs nothing.
  app.use(mockHostCheck(options.allowedHosts ?? mockAllowedHosts('127.0.0.1')));
  // A shared store (docs/mock.md, Shared sandbox): an API request is answered from a platform that
  // holds every command any replica committed before the request arrived.
  app.use(API_PREFIXES, (_req: Request, _res: Response, next: NextFunction) => {
    const caughtUp = platform.caughtUp();
    if (!caughtUp) return next();
    caughtUp.then(() => next(), next);
  });
  // After the catch-up: with a shared store, a fault added through any replica is in force here.
  app.use(faults.injectFaults);
  // Generation runs in the background (seed 000, AI tools): a job whose time has come is settled
  // before a request reads anything, so every API, the console and a snapshot show its course. A
  // settlement the state file cannot keep now waits; a write then answers 503 (Platform.run).
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    try {
      platform.settleDueJobs();
    } catch (error) {
      if (!(error instanceof CommandLogError)) return next(error);
    }
    next();
  });
  // 405 with Allow for a method a contract path lacks; OPTIONS lists the path's own methods.
  app.use(methodsOfPaths(specs));
  // A body is read by the contract router once the request is authenticated (mock/http/contract.ts).
  if (options.docs) app.use('/docs', docsRouter(options.docs));
  app.use('/console', consoleRouter());

  app.use(
    apiNamed('v1').prefix,
    v1Router({ spec: specs.v1, platform, onResponseMismatch: mismatch('v1'), answerError: errorAnswer }),
  );
  app.use(
    apiNamed('v2').prefix,
    v2Router({
      spec: specs.v2,
      platform,
      limits: options.limits,
      rateLimiter,
      failedLogins,
      onResponseMismatch: mismatch('v2'),
      answerError: errorAnswer,
    }),
  );
  app.use(
    apiNamed('admin').prefix,
    adminRouter({
      spec: specs.admin,
      platform,
      faults,
      rateLimiter,
      journal,
      adminToken: options.adminToken,
      version: options.version ?? '0.0.0',
      start: options.start ?? { seed: 'demo' },
      onResponseMismatch: mismatch('admin'),
      answerError: errorAnswer,
    }),
  );

  app.get(
    '/',
    pageHeaders(INDEX_POLICY),
    sendIndex({ version: options.version ?? '0.0.0', docs: Boolean(options.docs) }),
  );

  app.use((req: Request, res: Response) =>
    sendError(req, res, 404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`),
  );

  // Errors: the platform's own in the API's shape; a write the state file could not keep as 503 (it
  // changed nothing, a retry may work); body-parser failures as 400; anything else 500. An error the
  // contract router meets while a handler makes its answer is answered there (`answerError`), so
  // that in tests it is checked as the handler's own answers are; every other one here.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) =>
    sendAnswer(res, errorAnswer(error, req)),
  );

  return { app, faults, journal };
}

/** The answer to an error, as a value (docs/architecture.md, "A request through the mock", step 4). */
function errorAnswer(error: unknown, req: Request): AnswerObject {
  const api = apiOf(req.originalUrl);
  const shaped = (status: number, code: ApiError['code'], message: string, retryAfter?: number) => ({
    status,
    body: errorBodyOf(api, status, code, message),
    ...(retryAfter !== undefined ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
  });
  if (error instanceof CommandLogError)
    return shaped(503, 'STATE_NOT_SAVED', error.message, error.retryAfter);
  if (error instanceof IdsUsedUp) return shaped(503, 'STATE_NOT_SAVED', error.message);
  if (error instanceof DomainError) return domainErrorAnswer(api, error);
  const e = error as { type?: string; status?: number };
  if (e.type === 'entity.too.large')
    return shaped(400, 'VALIDATION_ERROR', `Request body is larger than ${JSON_BODY_LIMIT / 2 ** 20}mb`);
  if (e.type === 'entity.parse.failed') return shaped(400, 'VALIDATION_ERROR', 'Malformed JSON body');
  if (e.type === 'entity.too.deep') return shaped(400, 'VALIDATION_ERROR', (error as Error).message);
  if (e.status && e.status >= 400 && e.status < 500) return shaped(400, 'VALIDATION_ERROR', 'Bad request');
  console.error(error);
  return shaped(500, 'INTERNAL', 'Internal error of the mock');
}
