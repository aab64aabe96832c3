// Routing and validation from a bundled OpenAPI document. Every operation of the document is found
// by path and method in one table (contract/route-table.ts) and handled by the handler of its
// `operationId` — a missing handler is an error at start, so the mock cannot silently lack an
// operation. Each operation is a chain of
// small steps, one module each under ./contract/: compiled on first use (compile.ts), then per request
// authenticate (the API's `before`), read the JSON body (../json-body.ts), admit (the API's `admit`),
// answer a GET from the cache (cache.ts), coerce (coerce.ts), validate the input (validate-input.ts),
// receive (the API's `receive`), and the handler. Its answer is a value that leaves once, in the order
// `answer` below shows: serialised once, checked in tests (validate-output.ts), kept for a GET
// (cache.ts), sent — and the journal keeps the very string sent (journal/capture.ts).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { SpecSchemas } from '../../lib/openapi-schemas.ts';
import { AnswerCache } from './answer-cache.ts';
import { answerFromCache, keepAnswer } from './contract/cache.ts';
import { coerceParameters } from './contract/coerce.ts';
import { type CompiledOperation, compileOperation, type Node } from './contract/compile.ts';
import { operationTable } from './contract/operations.ts';
import { type InputProblem, inputProblems } from './contract/validate-input.ts';
import { checkAnswer, type MismatchReport } from './contract/validate-output.ts';
import { jsonBody } from './json-body.ts';
import { contextOf, required } from './request-context.ts';

export type { ValidatedRequest } from './contract/coerce.ts';
export type { InputProblem } from './contract/validate-input.ts';

/** A documented answer: the status and, when the status documents one, the JSON body. */
export interface AnswerObject {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The router's untyped view of a handler; handler maps are written against `Handlers` of
 * ./typed-handlers.ts, which types each one from generated/ by operationId.
 */
// biome-ignore lint/suspicious/noExplicitAny: the typed map is checked where it is written; here any input fits.
export type Handler = (req: Request, res: Response, input: any) => AnswerObject | Promise<AnswerObject>;

export interface ContractRouterOptions {
  spec: Node;
  /** One handler per operation, by operationId (typed with `Handlers<PathOperations>`). */
  handlers: object;
  /** Runs first (authentication); may answer itself. The body is read only once it admits the request. */
  before?: (req: Request, res: Response, operation: Node) => boolean | Promise<boolean>;
  /**
   * Runs after the body is read, before the cache and validation (what the caller may do: scopes,
   * licence, limits); may answer itself. The journal then shows the body of a refused write.
   */
  admit?: (req: Request, res: Response, operation: Node) => boolean | Promise<boolean>;
  /**
   * Runs after validation, before the handler and outside a write's turn (Platform.exclusive): the slow
   * part of a write that does not touch the platform (receiving and reading an upload), so that a slow
   * client never holds every replica's writes up.
   */
  receive?: (req: Request, res: Response, operation: Node) => Promise<void> | undefined;
  /**
   * The answer to an error thrown while the handler's answer was made (receiving an upload, the
   * handler, a write's turn or its flush to disk): the API's error shape, as the app's error
   * middleware would send it. Given, the error's answer passes the answer check like the handler's
   * own; without it (or when it answers undefined) the error goes to the error middleware.
   */
  answerError?: (error: unknown, req: Request) => AnswerObject | undefined;
  /** Answers invalid input in the API's error shape. */
  invalid: (res: Response, problems: InputProblem[], operation: Node) => void;
  /** When set, every JSON answer is checked against the document; a departure is passed here. */
  onResponseMismatch?: MismatchReport;
  /**
   * What a GET answer depends on besides its URL: the caller, and the epoch of every answer (the
   * state version, the virtual time). With it, successful GET answers are served again while both
   * stay the same. Runs after `before`.
   */
  cacheBy?: { epoch: () => string; caller: (res: Response) => string };
  /**
   * Writes made durable in batches (`--fsync`, Platform.durable): an answer is sent once the
   * commands its handler ran are on disk, since a 2xx promises the write is kept.
   */
  durability?: {
    writeMark(): number;
    durable(mark: number): Promise<void> | undefined;
    /** Runs a write's handler in its turn among every process's writes (a shared store, Platform.exclusive). */
    exclusive<T>(action: () => T): T | Promise<Awaited<T>>;
  };
}

/** One step of an operation's chain: like Express middleware, it answers or calls `next`. */
type Step = (req: Request, res: Response, next: NextFunction) => unknown;

/**
 * The steps of a route as one Express handler: each runs when the one before calls `next`, a throw
 * or a rejection goes to the error middleware, and a step that is synchronous costs no promise.
 * (One handler rather than one route layer per step: the router's dispatch per layer showed in the
 * request's profile, bench/RESULTS.md.)
 */
function runSteps(steps: Step[]): RequestHandler {
  return (req, res, next) => runFrom(steps, 0, req, res, next);
}

function runFrom(steps: Step[], i: number, req: Request, res: Response, next: NextFunction): void {
  const current = steps[i];
  if (!current) {
    next();
    return;
  }
  try {
    const result = current(req, res, ((error?: unknown) =>
      error !== undefined ? next(error) : runFrom(steps, i + 1, req, res, next)) as NextFunction);
    if (result instanceof Promise) result.catch(next);
  } catch (thrown) {
    next(thrown);
  }
}

export function contractRouter(options: ContractRouterOptions): RequestHandler {
  const { spec, handlers } = options;
  const schemas = SpecSchemas.of(spec);
  const cache = new AnswerCache();
  const body = jsonBody();

  const table = operationTable<RequestHandler>(spec, ({ path, method, operation }) => {
    const handler = (handlers as Record<string, Handler | undefined>)[operation.operationId];
    if (!handler)
      throw new Error(`no handler for operation ${operation.operationId} (${method.toUpperCase()} ${path})`);
    // Compiled on the operation's first request: compiling every operation's validators at start
    // was most of the mock's start-up time, for operations a run may never call.
    let steps: RequestHandler | undefined;
    return (req, res, next) => {
      steps ??= runSteps(
        chain(compileOperation(schemas, path, method), handler, options, schemas, cache, body),
      );
      steps(req, res, next);
    };
  });
  return (req, res, next) => {
    const found = table.match(req.method, req.path);
    if (!found) return next();
    req.params = found.params;
    found.value(req, res, next);
  };
}

/** The steps of one operation's route, in the order a request passes them. */
function chain(
  op: CompiledOperation,
  handler: Handler,
  options: ContractRouterOptions,
  schemas: SpecSchemas,
  cache: AnswerCache,
  body: RequestHandler,
): Step[] {
  const { operation, method } = op;
  const report = options.onResponseMismatch;
  /**
   * The answer leaves once, in this order: serialised once; in tests checked (a departure is reported
   * instead, and nothing is kept); a 200 to a GET the cache admitted kept, as the string or bytes it
   * is sent as; sent. The journal needs no step of its own: its capture (journal/capture.ts) keeps
   * what `end` writes, which for this answer is this very string, kept as written (no copy, no
   * re-read), and it holds `end` until a shared journal committed the request's row. It must capture
   * answers that are not this router's anyway (404s, 405s, refusals, the error middleware's, pages),
   * and keeping every answer as it went on the wire keeps HEAD's and a 304's empty bodies, which
   * Express decides in `send`, without a second path that restates its rules.
   */
  const answer = (res: Response, a: AnswerObject) => {
    // 1. Serialised once, as `res.json` would.
    const text = serialised(a);
    const type = head(res, a, text);
    if (text === undefined) {
      res.end();
      return;
    }
    // 2. In tests, the value checked against the contract; a departure is reported instead.
    if (report && type.includes('json')) {
      const errors = checkAnswer(schemas, op, a.status, a.body);
      if (errors.length) return report(res, a.status, errors, operation);
    }
    // 3. A 200 to a GET the cache admitted, kept as the string or bytes that are sent.
    const keepAs = contextOf(res).keepAs;
    const sent = keepAs !== undefined && a.status === 200 ? keepAnswer(cache, keepAs, type, text) : text;
    // 4. Sent, once; the journal's capture keeps these bytes as they are written.
    res.send(sent);
  };
  /** A thrown error as an answer that passes the same check, else for the error middleware. */
  const failed = (req: Request, res: Response, next: NextFunction) => (error: unknown) => {
    const a = options.answerError?.(error, req);
    if (a) answer(res, a);
    else next(error);
  };
  return [
    (req, res, next) => {
      // For the request journal (journal/): which operation this was, and why it was refused.
      contextOf(res).operationId = operation.operationId;
      proceedIf(options.before ? options.before(req, res, operation) : true, next);
    },
    // The body is read only once `before` has admitted the request: a client without credentials
    // gets its refusal without the mock holding its body (docs/mock.md, "Bounds"); the rest of an
    // unread body is discarded as it arrives. No operation reads a GET's body.
    (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : body(req, res, next)),
    (req, res, next) => proceedIf(options.admit ? options.admit(req, res, operation) : true, next),
    // The cache comes before coercion and validation: a kept answer is a 200 to this very URL, and
    // the input of a GET that takes no body is its URL alone (validate-input.ts checks path and
    // query), so validating it again could only repeat the verdict. Parsing and checking the query
    // was 6 % of a cached search's CPU (bench/RESULTS.md). An answer not found is kept by `answer`,
    // once checked, when the cache admits its key.
    (req, res, next) => {
      const { cacheBy } = options;
      if (method !== 'get' || !cacheBy || op.body.mediaTypes.length) return next();
      cache.enter(cacheBy.epoch());
      const key = `${cacheBy.caller(res)}|${req.originalUrl}`;
      const found = answerFromCache(res, cache, key);
      if (found === 'served') return;
      if (found === 'keep') contextOf(res).keepAs = key;
      next();
    },
    (req, res, next) => {
      const { input, unsent } = coerceParameters(req, op.parameters);
      const problems = inputProblems(req, op, input, unsent);
      if (problems.length) {
        contextOf(res).inputProblems = problems;
        return options.invalid(res, problems, operation);
      }
      contextOf(res).contract = { input };
      next();
    },
    (req, res, next) => {
      const received = options.receive?.(req, res, operation);
      if (received) received.then(() => next(), failed(req, res, next));
      else next();
    },
    (req, res, next) => {
      const fail = failed(req, res, next);
      try {
        const { durability } = options;
        const mark = durability?.writeMark();
        const run = () => handler(req, res, required(res, 'contract').input);
        const made = durability && method !== 'get' && method !== 'head' ? durability.exclusive(run) : run();
        const settle = (a: AnswerObject) => {
          const flushed = mark === undefined ? undefined : options.durability?.durable(mark);
          if (flushed) return flushed.then(() => answer(res, a));
          answer(res, a);
        };
        if (made instanceof Promise) made.then(settle).catch(fail);
        else settle(made)?.catch(fail);
      } catch (thrown) {
        fail(thrown);
      }
    },
  ];
}

/**
 * Goes on to the next step when a check admitted the request (a check that refused has answered);
 * a check that could not be made (a shared store out of reach) goes to the error handler.
 */
function proceedIf(admitted: boolean | Promise<boolean>, next: NextFunction): void {
  if (admitted instanceof Promise)
    admitted.then((yes) => {
      if (yes) next();
    }, next);
  else if (admitted) next();
}

/**
 * The answer's JSON text, made once as `res.json` makes it (the app sets no `json replacer`,
 * `json spaces` or `json escape`), or undefined for an answer without a body.
 */
const serialised = (a: AnswerObject) => (a.body === undefined ? undefined : JSON.stringify(a.body));

/**
 * Sets the answer's headers and status and, for a body, the content type `res.json` gives when the
 * answer names none; answers the content type.
 */
function head(res: Response, a: AnswerObject, text: string | undefined): string {
  if (a.headers) res.set(a.headers);
  res.status(a.status);
  if (text !== undefined && !res.get('Content-Type')) res.set('Content-Type', 'application/json');
  return String(res.get('Content-Type'));
}

/**
 * An answer made outside the contract router in the same way (the app's error middleware): the same
 * headers, status and bytes as the router's own, without the check and the cache that are the
 * router's.
 */
export function sendAnswer(res: Response, a: AnswerObject): void {
  const text = serialised(a);
  head(res, a, text);
  if (text === undefined) res.end();
  else res.send(text);
}
