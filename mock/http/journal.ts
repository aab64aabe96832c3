// The request journal (admin API, "Journal"): what each client sent and what the mock answered, for
// a person asking "what did my client send?" — URL with query, headers with credentials masked, bodies
// (cut at BODY_LIMIT) with the fields the contracts mark as secret masked (secrets.ts), the matched
// operation, the caller, and whether both sides kept the contract. It is a ring of the last `size`
// requests, outside the platform state: it describes this run only.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { components } from '../../generated/admin.ts';
import { formatErrors, resolveRef, SpecSchemas } from '../../lib/openapi-schemas.ts';
import { MCP_TOOL_HEADER, MCP_USER_AGENT } from '../../mcp-server/backend.ts';
import type { Caller } from '../domain/access.ts';
import { toIso } from '../domain/clock.ts';
import { findKey, keyDigest } from '../domain/mcp-keys.ts';
import type { Platform } from '../domain/platform.ts';
import type { Specs } from '../specs.ts';
import { matchesJson } from './body-match.ts';
import { RouteTable } from './contract/route-table.ts';
import type { InputProblem } from './contract.ts';
import { describeProblems } from './error-body.ts';
import { receivedJson } from './json-body.ts';
import { isSecretHeader, maskSecret, maskText, maskValue, type SecretTree, secretTree } from './secrets.ts';

/** Requests kept by default (`--journal-size`). */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** The most a journal may be asked to hold: each request may keep two bodies of BODY_LIMIT. */
export const MAX_JOURNAL_SIZE = 100_000;
/** Bodies are kept up to this many bytes, then cut with a note (1000 requests × 2 × 32 KB ≤ 64 MB). */
export const BODY_LIMIT = 32 * 1024;
/** The most of an `X-MCP-Tool` header kept: tool names are at most 64 characters (mcp-schema/). */
const TOOL_LIMIT = 64;
/**
 * The header the console sends with each of its admin calls (console/src/api.ts): the console's own
 * traffic is not journalled, so it never pushes a client's requests out of the ring.
 */
export const CONSOLE_HEADER = 'x-lmskit-console';

// The journal's wire shapes are the admin contract's (openapi/admin, Journal*): stated there once.
type Schemas = components['schemas'];
export type JournalApi = Schemas['JournalApi'];
export type JournalCaller = Schemas['JournalCaller'];
export type JournalVerdict = Schemas['JournalVerdict'];
export type JournalMessage = Schemas['JournalMessage'];
export type JournalEntry = Schemas['JournalEntry'];
type ContractApi = 'v1' | 'v2' | 'admin';
// biome-ignore lint/suspicious/noExplicitAny: bundled OpenAPI documents are walked generically.
type Node = Record<string, any>;

export interface JournalFilter {
  api?: JournalApi;
  method?: string;
  status?: number;
  minStatus?: number;
  maxStatus?: number;
  path?: string;
  operationId?: string;
  caller?: string;
  tool?: string;
  /** A JSON value the request's JSON body must match (body-match.ts), as the journal shows the body. */
  body?: unknown;
}

/**
 * What the journal keeps of one request. Recording runs on every request, reading rarely: so the
 * request and answer are kept as they were sent (header objects, the answer's chunks) and shaped for
 * reading — headers masked, bodies parsed, the verdict worked out — when first read, then kept.
 */
interface Stored {
  seq: number;
  atMs: number;
  virtualAt: number;
  method: string;
  path: string;
  url: string;
  status: number;
  latencyMs: number;
  api: JournalApi;
  operationId: string | null;
  caller: JournalCaller | null;
  tool: string | null;
  faultId: string | null;
  /** A fault answered instead of the API (not one that only delayed the real answer). */
  faultAnswered: boolean;
  inputProblems: InputProblem[] | null;
  sent: Sent;
  shown?: Shown;
  verdict?: JournalVerdict;
}

/** The raw parts of a request and its answer, as recorded. */
interface Sent {
  requestHeaders: IncomingHttpHeaders;
  requestBody: Omit<JournalMessage, 'headers'> | JsonSent;
  responseHeaders: OutgoingHttpHeaders;
  /** The answer's first BODY_LIMIT bytes (or fewer), as written: strings or buffers. */
  chunks: (string | Buffer)[];
  chunkEncodings: BufferEncoding[];
  totalBytes: number;
}

/** A JSON request body as text (its first BODY_LIMIT characters), parsed when first shown. */
interface JsonSent {
  json: string;
  /** The body's size in bytes, and its text's. */
  bodySize: number;
  textSize: number;
}

/** The request and answer as the journal shows them (`text`: the answer for the verdict, when whole). */
interface Shown {
  request: JournalMessage;
  response: JournalMessage & { text: string | null };
}

/** What an upload handler tells the journal about the file it received (the body is not kept). */
export interface UploadSummary {
  name: string;
  type: string;
  size: number;
}
const uploads = new WeakMap<Request, UploadSummary>();
/** Called by an upload handler: the journal shows this summary instead of the multipart body. */
export const noteUpload = (req: Request, summary: UploadSummary) => uploads.set(req, summary);

/** Which API a request path belongs to (the MCP tool server's v2 requests are `mcp`). */
export function journalApiOf(path: string, userAgent: string | undefined): JournalApi {
  if (path.startsWith('/openapi/v1')) return 'v1';
  if (path.startsWith('/api/v2')) return userAgent?.startsWith(MCP_USER_AGENT) ? 'mcp' : 'v2';
  if (path.startsWith('/__admin')) return 'admin';
  return 'other';
}

function headersOf(raw: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    const key = name.toLowerCase();
    out[key] = isSecretHeader(key) ? maskSecret(text) : text;
  }
  return out;
}

const isText = (type: string) => /json|text|xml|javascript|html|csv|yaml|x-www-form-urlencoded/.test(type);

/**
 * A body as the journal shows it: parsed JSON, else text, cut at BODY_LIMIT with a note; the secrets
 * `secrets` finds (the contract's schema of this body) masked.
 */
function bodyOf(
  text: string,
  size: number,
  type: string,
  secrets?: SecretTree,
): Pick<JournalMessage, 'body' | 'bodyNote'> {
  if (size > BODY_LIMIT)
    return { body: maskText(cut(text), secrets), bodyNote: `cut at ${BODY_LIMIT} of ${size} bytes` };
  if (type.includes('json')) {
    try {
      return { body: maskValue(JSON.parse(text), secrets), bodyNote: null };
    } catch {
      return { body: maskText(text, secrets), bodyNote: 'not valid JSON; shown as text' };
    }
  }
  return { body: text === '' ? null : maskText(text, secrets), bodyNote: null };
}

/**
 * The path and query of a request-target as sent. The absolute form (`GET http://host/path`, which a
 * client may send a server) loses its scheme and authority, whatever they hold, so every entry's URL
 * is a path that an origin can be put in front of (HAR, "Copy as curl").
 */
export function pathAndQuery(target: string): string {
  if (target.startsWith('/')) return target;
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** `origin` followed by a journalled URL, as a URL: put together as text, since `//x` resolved against an origin would name host x. */
function absoluteUrl(url: string, origin: string): URL {
  for (const text of [`${origin}${url.startsWith('/') ? '' : '/'}${url}`, `${origin}/`])
    try {
      return new URL(text);
    } catch {}
  return new URL('http://localhost/');
}

/**
 * The first BODY_LIMIT characters of `text`, copied: a slice of a long string would hold the whole
 * of it in memory for as long as the journal keeps the slice.
 */
const cut = (text: string) =>
  text.length > BODY_LIMIT ? Buffer.from(text.slice(0, BODY_LIMIT)).toString() : text;

function requestBodyOf(req: Request): Omit<JournalMessage, 'headers'> | JsonSent {
  const { headers } = req;
  const type = headers['content-type'] ?? '';
  const declared = Number(headers['content-length'] ?? 0);
  const upload = uploads.get(req);
  if (upload)
    return {
      body: { upload },
      bodySize: declared || upload.size,
      bodyNote: `an upload: ${upload.name} (${upload.type}, ${upload.size} bytes); the file is not kept`,
    };
  if (declared === 0 && headers['transfer-encoding'] === undefined)
    return { body: null, bodySize: 0, bodyNote: null };
  if (type.startsWith('multipart/'))
    return { body: null, bodySize: declared, bodyNote: `a multipart body of ${declared} bytes, not read` };
  // Read after this middleware, before the answer: the text as received, else the body written out.
  if (req.body !== undefined && type.includes('json')) {
    const text = receivedJson(req) ?? JSON.stringify(req.body) ?? '';
    const textSize = Buffer.byteLength(text);
    return { json: cut(text), bodySize: declared || textSize, textSize };
  }
  return {
    body: null,
    bodySize: declared,
    bodyNote: `a ${type || 'untyped'} body that the mock did not read`,
  };
}

/**
 * The caller named by a request's credentials: the site API key's tenant (v1), or the MCP key's
 * tenant, id and owner (v2), whether or not the request was then refused (a read-only key's write
 * is still that key's). Keys are compared as the pipeline compares them (hash, constant time).
 */
export function callerOfCredentials(platform: Platform, req: Request): JournalCaller | null {
  const mcpKey = req.get('x-mcp-key');
  if (mcpKey) {
    const digest = keyDigest(mcpKey);
    for (const tenant of platform.tenants.values()) {
      const key = findKey(tenant.keysByDigest, digest);
      if (key)
        return { tenantId: tenant.id, keyId: key.id, userId: tenant.users.get(key.userId)?.apiId ?? null };
    }
  }
  const siteKey = req.get('x-api-key');
  const tenant = siteKey ? platform.tenantBySiteKey(siteKey) : undefined;
  return tenant ? { tenantId: tenant.id, keyId: null, userId: null } : null;
}

/**
 * Requests that are not journalled, since they would push the requests of the clients under test out
 * of the ring (docs/mock.md, "Driving it from tests"): calls of the journal itself (a console polling
 * it would fill it with itself), the console's own admin calls (marked with CONSOLE_HEADER), and the
 * pages and assets of the console and the docs site, which a browser fetches by the dozen.
 */
const unrecorded = (req: Request, path: string) =>
  path.startsWith('/__admin/journal') ||
  (path.startsWith('/__admin/') && req.headers[CONSOLE_HEADER] !== undefined) ||
  path === '/console' ||
  path.startsWith('/console/') ||
  path === '/docs' ||
  path.startsWith('/docs/') ||
  path === '/favicon.ico';

/** The MCP tool the kit's tool server named for the request (`X-MCP-Tool`), cut to a tool name's length. */
function toolOf(req: Request): string | null {
  const tool = req.headers[MCP_TOOL_HEADER];
  return typeof tool === 'string' && tool !== '' ? tool.slice(0, TOOL_LIMIT) : null;
}

/** The bytes of an answer as they are written: the first BODY_LIMIT kept as written (no copy), all counted. */
class AnswerCapture {
  readonly chunks: (string | Buffer)[] = [];
  readonly encodings: BufferEncoding[] = [];
  totalBytes = 0;
  private captured = 0;

  keep(chunk: unknown, encoding?: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const enc = typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8';
    const piece = chunk as string | Buffer;
    const size = typeof piece === 'string' ? Buffer.byteLength(piece, enc) : piece.length;
    this.totalBytes += size;
    if (this.captured >= BODY_LIMIT) return;
    // Only a chunk that crosses the limit is cut (and so copied), to bound memory.
    const whole = this.captured + size <= BODY_LIMIT;
    this.chunks.push(
      whole ? piece : Buffer.from(piece as string, enc).subarray(0, BODY_LIMIT - this.captured),
    );
    this.encodings.push(enc);
    this.captured = Math.min(BODY_LIMIT, this.captured + size);
  }
}

/** What the journal holds of a request while it is answered; found on the answer under RECORDING. */
class Recording {
  readonly answer = new AnswerCapture();
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly atMs = Date.now();
  kept = false;

  constructor(
    readonly journal: RequestJournal,
    readonly req: Request,
    readonly started: number,
    readonly virtualAt: number,
    url: string,
    path: string,
  ) {
    this.method = req.method;
    this.path = path;
    this.url = url;
  }
}

const RECORDING = Symbol('journal recording');
const HOOKED = Symbol('journal hooks');
type Recorded = Response & { [RECORDING]?: Recording };
type Writer = (this: Response, chunk?: unknown, encoding?: unknown, callback?: unknown) => unknown;

/**
 * Keeps the answer's bytes and the entry from `write` and `end` on the app's response prototype,
 * installed once: wrapping each answer's own `write` and `end` cost two bound functions and three
 * closures per request, which showed in every read's profile (bench/RESULTS.md). An answer without
 * a recording (a path the journal skips) passes straight through.
 */
function hookAnswers(proto: Record<PropertyKey, unknown>): void {
  if (Object.hasOwn(proto, HOOKED)) return;
  const write = proto.write as Writer;
  const end = proto.end as Writer;
  proto.write = function (this: Recorded, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    this[RECORDING]?.answer.keep(chunk, encoding);
    return write.call(this, chunk, encoding, callback);
  };
  proto.end = function (this: Recorded, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    const recording = this[RECORDING];
    if (!recording) return end.call(this, chunk, encoding, callback);
    recording.answer.keep(chunk, encoding);
    const result = end.call(this, chunk, encoding, callback);
    if (!recording.kept) {
      recording.kept = true;
      recording.journal.keep(recording, this);
    }
    return result;
  };
  proto[HOOKED] = true;
}

export interface JournalOptions {
  size?: number;
  specs: Specs;
  /** The virtual clock, Unix seconds. */
  now: () => number;
  /** Who a request's credentials name (callerOfCredentials over the platform); none without it. */
  identify?: (req: Request) => JournalCaller | null;
  version: string;
}

export class RequestJournal {
  readonly size: number;
  private readonly ring: (Stored | undefined)[];
  private next = 0;
  private seq = 0;
  /** Requests held now: `size` once the ring has gone round, fewer after a start or `clear`. */
  private count = 0;
  private readonly schemas = new Map<ContractApi, SpecSchemas>();
  private readonly secrets = new Map<string, SecretTree | undefined>();
  private operations?: Map<string, { path: string; method: string; operation: Node }>;
  private routes?: Map<string, RouteTable<string>>;

  constructor(private readonly options: JournalOptions) {
    this.size = options.size ?? DEFAULT_JOURNAL_SIZE;
    if (!Number.isInteger(this.size) || this.size < 1 || this.size > MAX_JOURNAL_SIZE)
      throw new Error(`the journal size is a whole number from 1 to ${MAX_JOURNAL_SIZE}, not ${this.size}`);
    this.ring = new Array(this.size);
  }

  /** Express middleware, first in the chain: keeps each request and its answer once the answer is sent. */
  record = (req: Request, res: Response, next: NextFunction) => {
    // Read now: routers mounted below rewrite `req.url` while they handle the request.
    const url = pathAndQuery(req.originalUrl);
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    if (unrecorded(req, path)) return next();
    hookAnswers(Object.getPrototypeOf(res));
    (res as Recorded)[RECORDING] = new Recording(this, req, performance.now(), this.options.now(), url, path);
    next();
  };

  /** Leaves the request `res` answers out of the journal (a reset that clears it, admin/router.ts). */
  forget(res: Response): void {
    const recording = (res as Recorded)[RECORDING];
    if (recording) recording.kept = true;
  }

  /** Called once per request, by the answer's `end`, after the answer went out. */
  keep(r: Recording, res: Response): void {
    const { req } = r;
    const faultId = (res.locals.faultId as string | undefined) ?? null;
    const routed = res.locals.operationId as string | undefined;
    this.ring[this.next] = {
      seq: ++this.seq,
      atMs: r.atMs,
      virtualAt: r.virtualAt,
      method: r.method,
      path: r.path,
      url: r.url,
      status: res.statusCode,
      latencyMs: performance.now() - r.started,
      api: journalApiOf(r.path, req.headers['user-agent']),
      // A fault answers before any router: the operation is then found here, so that a test finds the
      // request by its operation and its secrets are masked by the operation's schemas.
      operationId: routed ?? (faultId ? this.operationAt(r.method, r.path) : null),
      caller: this.callerOf(req, res),
      tool: toolOf(req),
      faultId,
      faultAnswered: faultId !== null && routed === undefined,
      inputProblems: (res.locals.inputProblems as InputProblem[] | undefined) ?? null,
      sent: {
        requestHeaders: req.headers,
        requestBody: requestBodyOf(req),
        responseHeaders: res.getHeaders(),
        chunks: r.answer.chunks,
        chunkEncodings: r.answer.encodings,
        totalBytes: r.answer.totalBytes,
      },
    };
    this.next = (this.next + 1) % this.size;
    this.count = Math.min(this.count + 1, this.size);
  }

  /**
   * The caller as the API's own authentication found it (v1's tenant, v2's key), so a request
   * costs no second key lookup; a refused request's credentials are looked up here.
   */
  private callerOf(req: Request, res: Response): JournalCaller | null {
    const v2 = res.locals.caller as Caller | undefined;
    if (v2) return { tenantId: v2.tenant.id, keyId: v2.key.id, userId: v2.user.apiId };
    const v1 = res.locals.tenant as { id: string } | undefined;
    if (v1) return { tenantId: v1.id, keyId: null, userId: null };
    return this.options.identify?.(req) ?? null;
  }

  /** The request and answer of `s` as shown, worked out on first read. */
  private shownOf(s: Stored): Shown {
    if (s.shown) return s.shown;
    const { requestHeaders, requestBody, responseHeaders, chunks, chunkEncodings, totalBytes } = s.sent;
    const responseType = String(responseHeaders['content-type'] ?? '');
    const text = Buffer.concat(
      chunks.map((c, i) => (typeof c === 'string' ? Buffer.from(c, chunkEncodings[i]) : c)),
    ).toString('utf8');
    const body = isText(responseType)
      ? bodyOf(text, totalBytes, responseType, this.secretsOf(s, s.status))
      : {
          body: null,
          bodyNote: totalBytes ? `${totalBytes} bytes of ${responseType || 'untyped'} data` : null,
        };
    s.shown = {
      request: {
        headers: headersOf(requestHeaders),
        ...('json' in requestBody
          ? {
              ...bodyOf(requestBody.json, requestBody.textSize, 'application/json', this.secretsOf(s)),
              bodySize: requestBody.bodySize,
            }
          : requestBody),
      },
      response: {
        headers: headersOf(responseHeaders as Record<string, string | string[] | number>),
        ...body,
        bodySize: totalBytes,
        text: totalBytes <= BODY_LIMIT && isText(responseType) ? text : null,
      },
    };
    return s.shown;
  }

  /** How many requests the journal holds now. */
  get held(): number {
    return this.count;
  }

  /**
   * Forgets every request held; answers how many. The ids go on counting, so an id read before
   * never names a later request.
   */
  clear(): number {
    const cleared = this.count;
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
    return cleared;
  }

  /** Newest first, those that pass the filter, at most `limit`; with `full`, each with its request and answer. */
  list(filter: JournalFilter, limit: number, full = false): JournalEntry[] {
    return this.select(filter, limit).map((s) => {
      const entry = this.entryOf(s);
      if (!full) return entry;
      const { request, response } = this.shownOf(s);
      const { text: _text, ...answer } = response;
      return { ...entry, request, response: answer };
    });
  }

  detail(id: string): { entry: JournalEntry; request: JournalMessage; response: JournalMessage } | undefined {
    const seq = Number(id.slice('req_'.length));
    const stored = this.newestFirst().find((s) => s.seq === seq);
    if (!stored) return undefined;
    const shown = this.shownOf(stored);
    const { text: _text, ...response } = shown.response;
    return { entry: this.entryOf(stored), request: shown.request, response };
  }

  /** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), oldest first; `origin` makes URLs absolute. */
  har(filter: JournalFilter, limit: number, origin: string) {
    const entries = this.select(filter, limit)
      .reverse()
      .map((stored) => {
        const entry = this.entryOf(stored);
        const s = { ...stored, ...this.shownOf(stored) };
        const url = absoluteUrl(s.url, origin);
        const bodyText = (m: JournalMessage) =>
          m.body === null || m.body === undefined
            ? ''
            : typeof m.body === 'string'
              ? m.body
              : JSON.stringify(m.body);
        const pairs = (headers: Record<string, string>) =>
          Object.entries(headers).map(([name, value]) => ({ name, value }));
        const requestType = s.request.headers['content-type'] ?? '';
        const responseType = s.response.headers['content-type'] ?? '';
        return {
          startedDateTime: new Date(s.atMs).toISOString(),
          time: entry.latencyMs,
          request: {
            method: s.method,
            url: url.toString(),
            httpVersion: 'HTTP/1.1',
            headers: pairs(s.request.headers),
            queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
            ...(s.request.bodySize
              ? {
                  postData: {
                    mimeType: requestType,
                    text: bodyText(s.request),
                    ...(s.request.bodyNote ? { comment: s.request.bodyNote } : {}),
                  },
                }
              : {}),
            headersSize: -1 as const,
            bodySize: s.request.bodySize,
          },
          response: {
            status: s.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            headers: pairs(s.response.headers),
            content: {
              size: s.response.bodySize,
              mimeType: responseType,
              text: bodyText(s.response),
              ...(s.response.bodyNote ? { comment: s.response.bodyNote } : {}),
            },
            redirectURL: s.response.headers.location ?? '',
            headersSize: -1 as const,
            bodySize: s.response.bodySize,
          },
          cache: {},
          timings: { send: 0, wait: entry.latencyMs, receive: 0 },
          comment: `${entry.id} ${entry.operationId ?? 'no operation'}; ${
            entry.verdict.errors.length
              ? `contract departed: ${entry.verdict.errors.join('; ')}`
              : 'contract kept'
          }`,
        };
      });
    return {
      log: {
        version: '1.2' as const,
        creator: { name: 'lmskit mock', version: this.options.version },
        entries,
      },
    };
  }

  private newestFirst(): Stored[] {
    const out: Stored[] = [];
    for (let i = 1; i <= this.size; i++) {
      const s = this.ring[(this.next - i + this.size) % this.size];
      if (s) out.push(s);
    }
    return out;
  }

  private select(filter: JournalFilter, limit: number): Stored[] {
    const out: Stored[] = [];
    for (const s of this.newestFirst()) {
      if (out.length >= limit) break;
      if (filter.api && s.api !== filter.api) continue;
      if (filter.method && s.method !== filter.method) continue;
      if (filter.status !== undefined && s.status !== filter.status) continue;
      if (filter.minStatus !== undefined && s.status < filter.minStatus) continue;
      if (filter.maxStatus !== undefined && s.status > filter.maxStatus) continue;
      if (filter.path && !s.path.includes(filter.path)) continue;
      if (filter.operationId && s.operationId !== filter.operationId) continue;
      if (
        filter.caller &&
        !(s.caller && [s.caller.tenantId, s.caller.keyId, s.caller.userId].includes(filter.caller))
      )
        continue;
      if (filter.tool && s.tool !== filter.tool) continue;
      if (filter.body !== undefined && !this.bodyMatches(s, filter.body)) continue;
      out.push(s);
    }
    return out;
  }

  /**
   * Whether the JSON body of `s`, as the journal shows it (secret fields masked), matches `pattern`.
   * A body that was cut, or is not JSON (an upload, a form, text), never matches.
   */
  private bodyMatches(s: Stored, pattern: unknown): boolean {
    if (!('json' in s.sent.requestBody)) return false;
    const { body, bodyNote } = this.shownOf(s).request;
    return bodyNote === null && matchesJson(body, pattern);
  }

  private entryOf(s: Stored): JournalEntry {
    return {
      id: `req_${s.seq}`,
      at: new Date(s.atMs).toISOString(),
      virtualAt: toIso(s.virtualAt),
      method: s.method,
      path: s.path,
      url: s.url,
      status: s.status,
      latencyMs: Math.round(s.latencyMs * 1000) / 1000,
      api: s.api,
      operationId: s.operationId,
      caller: s.caller,
      tool: s.tool,
      faultId: s.faultId,
      verdict: this.verdictOf(s),
    };
  }

  private verdictOf(s: Stored): JournalVerdict {
    if (!s.verdict) s.verdict = this.judge(s);
    return s.verdict;
  }

  /** The request's verdict is the contract router's; the answer is checked here, once, when first read. */
  private judge(s: Stored): JournalVerdict {
    // A fault's answer is the test's, not the API's, and the request never reached the contract router.
    if (s.faultAnswered) return { request: 'unchecked', response: 'unchecked', errors: [] };
    const errors: string[] = [];
    const request = s.operationId === null ? 'unchecked' : s.inputProblems ? 'invalid' : 'valid';
    if (s.inputProblems) errors.push(...describeProblems(s.inputProblems).split('; '));
    const api: ContractApi | null = s.api === 'mcp' ? 'v2' : s.api === 'other' ? null : s.api;
    const found = api && s.operationId ? this.operation(api, s.operationId) : undefined;
    if (!api || !found) return { request, response: 'unchecked', errors };
    const spec = this.options.specs[api] as Node;
    const responses = found.operation.responses as Node;
    const key = responses[String(s.status)] ? String(s.status) : responses.default ? 'default' : null;
    if (!key)
      return { request, response: 'invalid', errors: [...errors, `status ${s.status} is not documented`] };
    const documented = resolveRef(spec, responses[key] as Node);
    const content = documented?.content as Node | undefined;
    const shown = this.shownOf(s).response;
    const type = shown.headers['content-type'] ?? '';
    if (!content || !type.includes('json') || shown.text === null)
      return { request, response: shown.text === null && content ? 'unchecked' : 'valid', errors };
    if (!content['application/json']?.schema)
      return {
        request,
        response: 'invalid',
        errors: [...errors, `status ${s.status} documents no JSON body`],
      };
    const response = responses[key] as Node;
    const at = response.$ref
      ? [...(response.$ref as string).slice(2).split('/'), 'content', 'application/json', 'schema']
      : ['paths', found.path, found.method, 'responses', key, 'content', 'application/json', 'schema'];
    let body: unknown;
    try {
      body = JSON.parse(shown.text);
    } catch {
      return { request, response: 'invalid', errors: [...errors, 'the answer is not valid JSON'] };
    }
    const departures = formatErrors(this.schemasOf(api).errors(at, body));
    return {
      request,
      response: departures.length ? 'invalid' : 'valid',
      errors: [...errors, ...departures.map((d) => `answer ${d}`)],
    };
  }

  /**
   * Where the secrets are in the request body of `s` (no `status`) or in its answer with `status`,
   * from the operation's schema in the contract (secrets.ts); worked out once per operation and status.
   */
  private secretsOf(s: Stored, status?: number): SecretTree | undefined {
    const api: ContractApi | null = s.api === 'mcp' ? 'v2' : s.api === 'other' ? null : s.api;
    if (!api || !s.operationId) return undefined;
    const key = `${api} ${s.operationId} ${status ?? 'request'}`;
    if (this.secrets.has(key)) return this.secrets.get(key);
    const spec = this.options.specs[api] as Node;
    const operation = this.operation(api, s.operationId)?.operation;
    let tree: SecretTree | undefined;
    if (operation) {
      const responses = (operation.responses ?? {}) as Node;
      const message =
        status === undefined
          ? resolveRef(spec, operation.requestBody as Node | undefined)
          : resolveRef(spec, (responses[String(status)] ?? responses.default) as Node | undefined);
      const content = (message?.content ?? {}) as Node;
      const schema = (content['application/json'] ?? Object.values(content)[0])?.schema as Node | undefined;
      tree = secretTree(spec, schema);
    }
    this.secrets.set(key, tree);
    return tree;
  }

  private schemasOf(api: ContractApi): SpecSchemas {
    let schemas = this.schemas.get(api);
    if (!schemas) {
      schemas = new SpecSchemas(this.options.specs[api]);
      this.schemas.set(api, schemas);
    }
    return schemas;
  }

  /** The operation of a contract that a request's method and path are for, found as the contract router finds it. */
  private operationAt(method: string, path: string): string | null {
    if (!this.routes) {
      this.routes = new Map();
      for (const [api, prefix] of [
        ['v1', '/openapi/v1'],
        ['v2', '/api/v2'],
        ['admin', '/__admin'],
      ] as const) {
        const table = new RouteTable<string>();
        for (const [at, item] of Object.entries((this.options.specs[api] as Node).paths as Node))
          for (const m of ['get', 'put', 'post', 'delete', 'patch'])
            if (item[m]) table.add(m, at, String(item[m].operationId));
        this.routes.set(prefix, table);
      }
    }
    for (const [prefix, table] of this.routes) {
      if (!path.startsWith(`${prefix}/`)) continue;
      try {
        return table.match(method, path.slice(prefix.length))?.value ?? null;
      } catch {
        return null; // a path parameter that is not valid percent-encoding
      }
    }
    return null;
  }

  private operation(api: ContractApi, operationId: string) {
    if (!this.operations) {
      this.operations = new Map();
      for (const name of ['v1', 'v2', 'admin'] as const) {
        const paths = (this.options.specs[name] as Node).paths as Node;
        for (const [path, item] of Object.entries(paths))
          for (const method of ['get', 'put', 'post', 'delete', 'patch'])
            if (item[method])
              this.operations.set(`${name} ${item[method].operationId}`, {
                path,
                method,
                operation: item[method],
              });
      }
    }
    return this.operations.get(`${api} ${operationId}`);
  }
}
