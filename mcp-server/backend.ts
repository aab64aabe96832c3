// The tool server's client of an /api/v2 backend (the mock or a real deployment). Every request
// carries the MCP key in `X-MCP-Key`. A 429 is retried with exponential backoff, at most 3 times,
// honouring the delay the backend gives in `Retry-After` or in its message ("retry after Ns") —
// seed 000, Errors: "The tool server retries 429 responses with exponential backoff, at most 3 times".
// Over HTTP the tool server serves many clients from one address; it names the client it acts for in
// `X-Forwarded-For`, so the platform's per-address limit on failed logins counts that client alone
// (seed 000, Errors: 429 MCP_AUTH_RATE_LIMITED is per IP).

import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { paths } from '../generated/v2.ts';
import { MCP_TOOL_HEADER, MCP_USER_AGENT } from '../lib/mcp-headers.ts';

/** A path of openapi/v2, as generated/v2.ts names them: a literal path that drifts is a compile error. */
export type BackendPath = keyof paths;

/**
 * The connections to the backend, kept open between requests: a tool call then costs the backend
 * request alone, not a TCP handshake too. A connection carries one request at a time, each with the
 * headers of its own key and client, so sharing the connections shares nothing between keys.
 */
export interface BackendAgent {
  http: HttpAgent;
  https: HttpsAgent;
}

export const keepAliveAgent = (): BackendAgent => ({
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
});

/** The process's connections, for a Backend not given its own. */
const SHARED = keepAliveAgent();

// How these requests are marked for the mock's journal and faults (shared with the mock, lib/).
export { MCP_TOOL_HEADER, MCP_USER_AGENT };

export interface BackendAnswer {
  status: number;
  body: unknown;
  /** How many times a 429 was retried before this answer. */
  retries: number;
  /** A 429's delay in seconds, from `Retry-After` or the message. */
  retryAfter?: number;
}

export interface BackendOptions {
  baseUrl: string;
  key: string;
  /** The address of the client the tool server acts for, sent as `X-Forwarded-For` (HTTP only). */
  clientAddress?: string;
  /** First backoff delay; it doubles with each retry. */
  backoffMs?: number;
  /** A 429 that asks to wait longer than this is reported at once (a daily quota will not clear in seconds). */
  maxRetryWaitMs?: number;
  maxRetries?: number;
  /** How long one request may take. */
  timeoutMs?: number;
  /** The connections to reuse; by default the process's own. */
  agent?: BackendAgent;
  /** Wait function, replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

export interface BackendRequest {
  method: string;
  /**
   * The path with its parameters filled in. Literal paths are checked against the contract's
   * (`BackendPath`); the tools' paths come from their `x-backend` entries, which
   * test/contracts/tool-backends.test.ts holds to openapi/v2.
   */
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  form?: FormData;
  /** The tool the call is made for, sent as `X-MCP-Tool`. */
  tool?: string;
}

/** Seed 000: "A 429 carries the retry delay inside the error message text". */
export function retryDelaySeconds(retryAfterHeader: string | undefined, body: unknown): number | null {
  const header = Number(retryAfterHeader);
  if (Number.isFinite(header) && header > 0) return header;
  const message = (body as { error?: unknown })?.error;
  const match = typeof message === 'string' ? /retry after (\d+)\s*s/i.exec(message) : null;
  return match ? Number(match[1]) : null;
}

export class Backend {
  readonly baseUrl: string;
  private readonly key: string;
  private readonly clientAddress: string | undefined;
  private readonly backoffMs: number;
  private readonly maxRetryWaitMs: number;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly agent: BackendAgent;

  constructor(options: BackendOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.key = options.key;
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; it is the same client as a.b.c.d.
    this.clientAddress = options.clientAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    this.backoffMs = options.backoffMs ?? 500;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.agent = options.agent ?? SHARED;
  }

  async request(req: BackendRequest): Promise<BackendAnswer> {
    const url = new URL(`${this.baseUrl}/api/v2${req.path}`);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      'x-mcp-key': this.key,
      accept: 'application/json',
      'user-agent': MCP_USER_AGENT,
    };
    if (this.clientAddress) headers['x-forwarded-for'] = this.clientAddress;
    if (req.tool) headers[MCP_TOOL_HEADER] = req.tool;
    let body: Buffer | undefined;
    if (req.form) {
      // Encoded as fetch would send it: multipart, the boundary in the content type.
      const encoded = new Response(req.form);
      headers['content-type'] = encoded.headers.get('content-type') as string;
      body = Buffer.from(await encoded.arrayBuffer());
    } else if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(req.body));
    }
    if (body) headers['content-length'] = String(body.length);
    for (let retries = 0; ; retries++) {
      let response: { status: number; headers: IncomingHttpHeaders; text: string };
      try {
        response = await send(url, req.method, headers, body, this.timeoutMs, this.agent);
      } catch (error) {
        const reason =
          (error as Error).name === 'TimeoutError'
            ? `no answer within ${this.timeoutMs / 1000} s`
            : (error as Error).message;
        return {
          status: 503,
          body: { error: `cannot reach ${this.baseUrl}: ${reason}`, code: 'BACKEND_UNREACHABLE' },
          retries,
        };
      }
      const { text } = response;
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {}
      if (response.status !== 429) return { status: response.status, body: parsed, retries };
      const retryAfter = retryDelaySeconds(response.headers['retry-after'], parsed) ?? undefined;
      const asked = (retryAfter ?? 0) * 1000;
      if (retries >= this.maxRetries || asked > this.maxRetryWaitMs)
        return { status: 429, body: parsed, retries, ...(retryAfter ? { retryAfter } : {}) };
      await this.sleep(Math.max(asked, this.backoffMs * 2 ** retries));
    }
  }
}

/** RFC 9110, 9.2.2: requests with these methods may be sent again when a connection fails. */
const IDEMPOTENT = ['GET', 'HEAD', 'PUT', 'DELETE'];

/**
 * One HTTP exchange with the backend, over a kept-alive connection of `agent`. A request whose reused
 * connection the backend closed before answering (the race every keep-alive client has: the backend
 * drops an idle connection as the request goes out) is sent once more, on a new connection, when its
 * method is idempotent; a write is not, since the platform may have acted on it.
 */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  timeoutMs: number,
  agent: BackendAgent,
  again = true,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const https = url.protocol === 'https:';
  const request = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      headers,
      agent: https ? agent.https : agent.http,
    });
    // One deadline for the whole exchange, as a fetch with AbortSignal.timeout had.
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })),
      timeoutMs,
    );
    let settled = false;
    let answered = false;
    const fail = (error: Error & { code?: string }) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      const closedUnused = !answered && req.reusedSocket && error.code === 'ECONNRESET';
      if (again && closedUnused && IDEMPOTENT.includes(method))
        resolve(send(url, method, headers, body, timeoutMs, agent, false));
      else reject(error);
    };
    req.on('error', fail);
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.end(body);
  });
}
