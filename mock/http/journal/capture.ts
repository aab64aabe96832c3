// How the request journal records a request while it is answered: which requests it leaves out, the
// request-target as sent, the request's body (JSON as text, an upload as its summary, anything else as
// a note), and the answer's bytes as they are written — by hooking `write` and `end` on the app's
// response prototype, once — until `end` hands the whole to the journal as a `Stored` request. Only
// what is cheap happens here; shaping for reading waits for the first read (view.ts).
// One capture for every answer, the contract router's too: answers of no contract (404s, 405s,
// refusals, the error middleware's, pages, the Host check) need it anyway, and `end` is where a shared
// journal holds the answer until its row is committed. A contract answer reaches it as the one string
// the router serialised (../contract.ts, `answer`), kept as written — no copy and no second path that
// would restate Express's HEAD and 304 rules to know what went on the wire.
import type { Request, Response } from 'express';
import { MCP_TOOL_HEADER, MCP_USER_AGENT } from '../../../lib/mcp-headers.ts';
import { apiOf } from '../apis.ts';
import { receivedJson } from '../json-body.ts';
import { contextOf } from '../request-context.ts';
import { maskQuery } from '../secrets.ts';
import { BODY_LIMIT, cut, type JournalApi, type JournalCaller, type Sent, type Stored } from './entry.ts';

/** The most of an `X-MCP-Tool` header kept: tool names are at most 64 characters (mcp-schema/). */
const TOOL_LIMIT = 64;
/**
 * The header the console sends with each of its admin calls (console/src/api.ts): the console's own
 * traffic is not journalled, so it never pushes a client's requests out of the ring.
 */
export const CONSOLE_HEADER = 'x-lmskit-console';

/** What an upload handler tells the journal about the file it received (the body is not kept). */
export interface UploadSummary {
  name: string;
  type: string;
  size: number;
}
const uploads = new WeakMap<Request, UploadSummary>();
/** Called by an upload handler: the journal shows this summary instead of the multipart body. */
export const noteUpload = (req: Request, summary: UploadSummary) => uploads.set(req, summary);

/** Which API a request path belongs to (../apis.ts); the MCP tool server's v2 requests are `mcp`. */
export function journalApiOf(path: string, userAgent: string | undefined): JournalApi {
  const api = apiOf(path);
  return api === 'v2' && userAgent?.startsWith(MCP_USER_AGENT) ? 'mcp' : api;
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

function requestBodyOf(req: Request): Sent['requestBody'] {
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
    const received = receivedJson(req);
    const textSize = Buffer.byteLength(received ?? JSON.stringify(req.body) ?? '');
    // A body the journal cuts is shown as text, its secrets found by name (view.ts, maskText): it is kept
    // written out again from its parsed value, where a secret's name escaped in the text as sent
    // (`"pass\u0077ord"`) reads as the name. A whole one is parsed when shown and masked by its value.
    const text =
      received !== undefined && textSize <= BODY_LIMIT ? received : (JSON.stringify(req.body) ?? '');
    return { json: cut(text), bodySize: declared || textSize, textSize };
  }
  return {
    body: null,
    bodySize: declared,
    bodyNote: `a ${type || 'untyped'} body that the mock did not read`,
  };
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

/**
 * Where a finished recording goes: the journal, once the answer's `end` went out — or, when it
 * `holdsAnswers`, before: `keep` then answers a promise, and the answer's `end` waits for it.
 */
export interface RecordingSink {
  /**
   * A shared journal (docs/mock.md, Shared sandbox) promises that a client who has its answer finds
   * the request in every replica's journal: the answer goes out once the request is kept there.
   */
  readonly holdsAnswers: boolean;
  keep(recording: Recording, res: Response): void | Promise<void>;
}

/** What the journal holds of a request while it is answered; found on the answer under RECORDING. */
export class Recording {
  readonly answer = new AnswerCapture();
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly atMs = Date.now();
  kept = false;
  /** The answer's `end` waits for the journal (RecordingSink.holdsAnswers). */
  held = false;

  constructor(
    readonly sink: RecordingSink,
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
    // A second `end` while the first waits for the journal: the first ends the answer, and a second
    // end of an ended answer is an error event Node would throw without a listener.
    if (recording.held) return this;
    recording.answer.keep(chunk, encoding);
    if (!recording.kept && recording.sink.holdsAnswers) {
      recording.kept = true;
      let kept: void | Promise<void>;
      try {
        kept = recording.sink.keep(recording, this);
      } catch (error) {
        // The answer goes out whatever the journal did, as it does when the journal keeps it after.
        end.call(this, chunk, encoding, callback);
        throw error;
      }
      if (kept) {
        recording.held = true;
        const finish = () => end.call(this, chunk, encoding, callback);
        kept.then(finish, finish);
        return this;
      }
      return end.call(this, chunk, encoding, callback);
    }
    const result = end.call(this, chunk, encoding, callback);
    if (!recording.kept) {
      recording.kept = true;
      recording.sink.keep(recording, this);
    }
    return result;
  };
  proto[HOOKED] = true;
}

/**
 * Starts recording the request `res` answers, unless the journal leaves it out; `sink` is handed the
 * recording once the answer is sent. `clock.now()` reads the virtual clock (Unix seconds).
 */
export function startRecording(
  sink: RecordingSink,
  req: Request,
  res: Response,
  clock: { now(): number },
): void {
  // Read now: routers mounted below rewrite `req.url` while they handle the request.
  const url = pathAndQuery(req.originalUrl);
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (unrecorded(req, path)) return;
  hookAnswers(Object.getPrototypeOf(res));
  (res as Recorded)[RECORDING] = new Recording(sink, req, performance.now(), clock.now(), url, path);
}

/** Leaves the request `res` answers out of the journal. */
export function forgetRecording(res: Response): void {
  const recording = (res as Recorded)[RECORDING];
  if (recording) recording.kept = true;
}

/** What the journal looks up for a finished recording: the operation a fault answered, and the caller. */
export interface StoredLookups {
  /** The operation of a contract that a request's method and path are for (contracts.ts). */
  operationAt(method: string, path: string): string | null;
  /** Who the request's credentials name (caller.ts). */
  callerOf(req: Request, res: Response): JournalCaller | null;
}

/** The request `r` recorded and its answer `res` as the journal keeps them; the ring gives it its `seq`. */
export function storedOf(r: Recording, res: Response, lookups: StoredLookups): Stored {
  const { req } = r;
  const context = contextOf(res);
  const faultId = context.faultId ?? null;
  const routed = context.operationId;
  const requestBody = requestBodyOf(req);
  return {
    seq: 0,
    atMs: r.atMs,
    virtualAt: r.virtualAt,
    method: r.method,
    path: r.path,
    // Kept masked: the store (a shared one is PostgreSQL) never holds a credential sent in the query.
    url: maskQuery(r.url),
    status: res.statusCode,
    latencyMs: performance.now() - r.started,
    api: journalApiOf(r.path, req.headers['user-agent']),
    // A fault answers before any router: the operation is then found here, so that a test finds the
    // request by its operation and its secrets are masked by the operation's schemas.
    operationId: routed ?? (faultId ? lookups.operationAt(r.method, r.path) : null),
    caller: lookups.callerOf(req, res),
    tool: toolOf(req),
    faultId,
    faultAnswered: faultId !== null && routed === undefined,
    inputProblems: context.inputProblems ?? null,
    jsonBody: 'json' in requestBody,
    sent: {
      requestHeaders: req.headers,
      requestBody,
      responseHeaders: res.getHeaders(),
      chunks: r.answer.chunks,
      chunkEncodings: r.answer.encodings,
      totalBytes: r.answer.totalBytes,
    },
  };
}
