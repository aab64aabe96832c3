// Routing and validation from a bundled OpenAPI document. Every operation of the
// document becomes an Express route whose handler is looked up by `operationId` — a missing handler
// is an error at start, so the mock cannot silently lack an operation. Parameters and bodies are
// validated against the document's own schemas, compiled once when the router is built.
import type { ErrorObject } from 'ajv/dist/2020.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { resolveRef, SpecSchemas } from '../../lib/openapi-schemas.ts';
import { AnswerCache } from './answer-cache.ts';

// biome-ignore lint/suspicious/noExplicitAny: bundled OpenAPI documents are walked generically.
type Node = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** One invalid value: where it is (`body`, `path`, `query`) and the ajv errors for it. */
export interface InputProblem {
  in: 'path' | 'query' | 'body';
  /** The parameter name for path and query. */
  name?: string;
  errors: ErrorObject[];
}

export interface ValidatedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

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
  /** Runs before validation (authentication); may answer itself. */
  before?: (req: Request, res: Response, operation: Node) => boolean | Promise<boolean>;
  /** Answers invalid input in the API's error shape. */
  invalid: (res: Response, problems: InputProblem[], operation: Node) => void;
  /** When set, every JSON answer is checked against the document; a departure is passed here. */
  onResponseMismatch?: (res: Response, status: number, errors: string[], operation: Node) => void;
  /**
   * What a GET answer depends on besides its URL (the caller, the state version, the virtual time);
   * with it, successful GET answers are served again while that stays the same. Runs after `before`.
   */
  cacheKey?: (req: Request, res: Response) => string;
}

const deref = resolveRef;

/** Query and path values arrive as strings; turn them into what their schema says before validating. */
function coerce(value: unknown, schema: Node | undefined): unknown {
  if (typeof value !== 'string' || !schema) return value;
  const types = ([] as string[]).concat(schema.type ?? []);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value))
    return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** Literal segments sort before templated ones, so `/statistics/leaders` wins over `/statistics/{scope}`. */
const specificity = (path: string) =>
  path
    .split('/')
    .map((s) => (s.startsWith('{') ? '1' : '0'))
    .join('');

export function contractRouter(options: ContractRouterOptions): Router {
  const { spec, handlers } = options;
  const schemas = new SpecSchemas(spec);
  const router = express.Router();
  const cache = new AnswerCache();
  const paths = Object.keys(spec.paths as Node).sort((a, b) => specificity(a).localeCompare(specificity(b)));

  for (const path of paths) {
    const item = spec.paths[path] as Node;
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const handler = (handlers as Record<string, Handler | undefined>)[operation.operationId];
      if (!handler)
        throw new Error(
          `no handler for operation ${operation.operationId} (${method.toUpperCase()} ${path})`,
        );

      // Where each schema sits in the document, so ajv resolves its `$ref`s as the document does.
      const refOrInline = (node: Node, inline: string[]) =>
        node.$ref ? (node.$ref as string).slice(2).split('/') : inline;
      const parameters = [
        ...(item.parameters ?? []).map((p: Node, i: number) =>
          refOrInline(p, ['paths', path, 'parameters', String(i)]),
        ),
        ...(operation.parameters ?? []).map((p: Node, i: number) =>
          refOrInline(p, ['paths', path, method, 'parameters', String(i)]),
        ),
      ].map((at: string[]) => {
        const param = at.reduce((acc: Node, k) => acc[k], spec) as Node;
        // Compiled now, at start, not on the first request.
        return { param, schema: deref(spec, param.schema), validate: schemas.validator([...at, 'schema']) };
      });
      const body = operation.requestBody
        ? refOrInline(operation.requestBody, ['paths', path, method, 'requestBody'])
        : null;
      const bodyNode = body ? (body.reduce((acc: Node, k) => acc[k], spec) as Node) : null;
      const bodyValidator = bodyNode?.content?.['application/json']
        ? schemas.validator([...(body as string[]), 'content', 'application/json', 'schema'])
        : null;
      const bodyRequired = bodyNode?.required === true;
      const mediaTypes = Object.keys(bodyNode?.content ?? {});

      const expressPath = path.replace(/\{([^}]+)\}/g, ':$1');
      router[method](expressPath, async (req: Request, res: Response, next: NextFunction) => {
        try {
          // For the request journal (journal.ts): which operation this was, and why it was refused.
          res.locals.operationId = operation.operationId;
          if (options.before) {
            const allowed = options.before(req, res, operation);
            if (!(allowed instanceof Promise ? await allowed : allowed)) return;
          }
          const problems: InputProblem[] = [];
          const input: ValidatedRequest = { params: {}, query: {}, body: req.body };
          for (const { param, schema, validate } of parameters) {
            const source =
              param.in === 'path' ? req.params : param.in === 'query' ? (req.query as Node) : undefined;
            if (!source) continue;
            const target = param.in === 'path' ? input.params : input.query;
            const raw = source[param.name];
            if (raw === undefined) {
              if (param.required)
                problems.push({ in: param.in, name: param.name, errors: [requiredError(param.name)] });
              else if (schema?.default !== undefined) target[param.name] = schema.default;
              continue;
            }
            const value = coerce(raw, schema);
            if (!validate(value))
              problems.push({ in: param.in, name: param.name, errors: [...(validate.errors ?? [])] });
            target[param.name] = value;
          }
          const hasBody =
            Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
          if (hasBody && mediaTypes.length && !req.is(mediaTypes)) {
            problems.push({ in: 'body', errors: [mediaTypeError(mediaTypes)] });
          } else if (!hasBody) {
            // An empty body is a missing one, whatever the body parser made of it.
            if (bodyRequired) problems.push({ in: 'body', errors: [requiredError('body')] });
            input.body = undefined;
          } else if (bodyValidator && !bodyValidator(req.body)) {
            problems.push({ in: 'body', errors: [...(bodyValidator.errors ?? [])] });
          }
          if (problems.length) {
            res.locals.inputProblems = problems;
            return options.invalid(res, problems, operation);
          }
          const key =
            method === 'get' && options.cacheKey ? `${options.cacheKey(req, res)}|${req.originalUrl}` : null;
          const hit = key ? cache.get(key) : undefined;
          if (hit) {
            res.status(200).set('content-type', hit.type).send(hit.body);
            return;
          }
          // Installed first, so that the contract check (outermost) runs before anything is kept.
          if (key) rememberAnswer(res, (answer) => cache.set(key, answer));
          if (options.onResponseMismatch)
            checkResponses(res, operation, schemas, path, method, options.onResponseMismatch);
          const answer = await handler(req, res, input);
          if (answer.headers) res.set(answer.headers);
          if (answer.body === undefined) res.status(answer.status).end();
          else res.status(answer.status).json(answer.body);
        } catch (error) {
          next(error);
        }
      });
    }
  }
  return router;
}

/** Hands a 200 answer's body to `keep` as it is sent. */
function rememberAnswer(res: Response, keep: (answer: { type: string; body: string }) => void): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    res.send = send;
    if (res.statusCode === 200 && typeof body === 'string')
      keep({ type: String(res.get('content-type') ?? 'application/json'), body });
    return send(body);
  };
}

const requiredError = (name: string): ErrorObject => ({
  instancePath: '',
  schemaPath: '#/required',
  keyword: 'required',
  params: { missingProperty: name },
  message: `must have required property '${name}'`,
});

const mediaTypeError = (types: string[]): ErrorObject => ({
  instancePath: '',
  schemaPath: '#/content',
  keyword: 'contentType',
  params: { types },
  message: `Content-Type must be ${types.join(' or ')}`,
});

/** Wraps `res.send` so that each JSON answer (`res.json` or a serialised body) is checked against the operation's documented responses. */
function checkResponses(
  res: Response,
  operation: Node,
  schemas: SpecSchemas,
  path: string,
  method: string,
  report: NonNullable<ContractRouterOptions['onResponseMismatch']>,
): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    // The report answers through res.send too: it is not checked again.
    res.send = send;
    if (typeof body !== 'string' || !String(res.get('content-type') ?? '').includes('json'))
      return send(body);
    const status = res.statusCode;
    const key = operation.responses[String(status)]
      ? String(status)
      : operation.responses.default
        ? 'default'
        : null;
    const fail = (errors: string[]) => {
      report(res, status, errors, operation);
      return res;
    };
    if (!key) return fail([`status ${status} is not documented`]);
    const response = operation.responses[key] as Node;
    const at = response.$ref
      ? [...(response.$ref as string).slice(2).split('/'), 'content', 'application/json', 'schema']
      : ['paths', path, method, 'responses', key, 'content', 'application/json', 'schema'];
    if (!deref(schemas.spec, response)?.content?.['application/json']?.schema)
      return fail([`status ${status} documents no JSON body`]);
    const parsed = JSON.parse(body);
    const errors = schemas.errors(at, parsed);
    if (errors.length) return fail(errors.map((e) => `${e.instancePath || '/'}: ${e.message}`));
    // The error-code catalogue: an error answer carries a code its response documents.
    const codes = deref(schemas.spec, response)?.['x-error-codes'] as string[] | undefined;
    if (codes && !codes.includes(parsed?.code))
      return fail([
        `code ${parsed?.code} is not documented for status ${status} (x-error-codes: ${codes.join(', ')})`,
      ]);
    return send(body);
  };
}
