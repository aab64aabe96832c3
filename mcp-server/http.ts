// The tool server over Streamable HTTP at /mcp. Stateless: every request carries its own `X-MCP-Key`,
// which is forwarded to the backend with the client's address, so each key sees its own tool list
// (cached briefly per key) and each client's failed logins count against that client alone.
// Security model (docs/mcp.md, "Security"): the Host header must name an allowed host (DNS
// rebinding), a browser's Origin must be an allowed origin (answered with CORS), the body is bounded,
// and every answer, refusals included, is JSON-RPC.
import { createHash } from 'node:crypto';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Backend, type BackendOptions } from './backend.ts';
import { HttpExchange } from './http-exchange.ts';
import { idOf, RpcCode, type RpcId } from './rpc.ts';
import { type Refusal, refusalData, ToolServer } from './server.ts';
import type { ToolRunner } from './tools.ts';

/** The largest request body read; the largest tool call (a 10 000-character prompt) is far smaller. */
export const MAX_BODY_BYTES = 1024 * 1024;

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

export interface HttpOptions {
  baseUrl: string;
  runner: ToolRunner;
  version: string;
  /** The address the server listens on; with `allowedHosts`, decides which Host headers are served. */
  host: string;
  /** Host names (no port) the Host header may carry; requests naming another get 403. */
  allowedHosts?: string[];
  /** Origins besides those of localhost that may call the server (browsers send Origin). */
  allowedOrigins?: string[];
  /** How long a key's tool list is reused. */
  toolListTtlMs?: number;
  backend?: Partial<BackendOptions>;
}

const WILDCARDS = ['0.0.0.0', '::', '[::]'];

/** The hostname a Host header carries for an address (IPv6 in brackets), as the Host check compares it. */
export function hostnameOf(host: string): string {
  return new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}`).hostname;
}

/**
 * The host names served: those given, else localhost's and the address listened on. Listening on every
 * interface names no host, so then only localhost's are served until --allowed-hosts names the others:
 * the Host check never switches off.
 */
export function allowedHostsFor(host: string, allowedHosts?: string[]): string[] {
  if (allowedHosts?.length) return allowedHosts.map(hostnameOf);
  return [...new Set([...LOOPBACK_HOSTS, ...(WILDCARDS.includes(host) ? [] : [hostnameOf(host)])])];
}

export const listensEverywhere = (host: string) => WILDCARDS.includes(host);

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** What a browser page may send and read (Streamable HTTP's headers and the key). */
const CORS_REQUEST_HEADERS =
  'Content-Type, Accept, X-MCP-Key, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
const CORS_EXPOSED_HEADERS = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After';

/** The challenge of a 401: the key goes in X-MCP-Key; there is no OAuth to start. */
const CHALLENGE = 'X-MCP-Key realm="lmskit MCP tool server"';

const rpcError = (
  res: Response,
  status: number,
  code: number,
  message: string,
  id: RpcId = null,
  data?: unknown,
) =>
  res
    .status(status)
    .json({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } });

function refuse(res: Response, refusal: Refusal, id: RpcId): void {
  if (refusal.status === 401) res.set('WWW-Authenticate', `${CHALLENGE}, error="invalid_key"`);
  if (refusal.retryAfter) res.set('Retry-After', String(refusal.retryAfter));
  rpcError(res, refusal.status, refusal.code, refusal.message, id, refusalData(refusal));
}

export function createHttpApp(options: HttpOptions) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const lists = new Map<string, { names: string[]; at: number }>();
  /** The tool lists of the last 1 000 keys, oldest out first. */
  const remember = (id: string, names: string[]) => {
    lists.delete(id);
    lists.set(id, { names, at: Date.now() });
    if (lists.size > 1000) lists.delete(lists.keys().next().value as string);
  };
  const ttl = options.toolListTtlMs ?? 5000;
  const originAllowed = (origin: string) =>
    LOCAL_ORIGIN.test(origin) || !!options.allowedOrigins?.includes(origin);

  // DNS rebinding: a page of evil.example whose name now points at this machine sends Host: evil.example.
  app.use(hostHeaderValidation(allowedHostsFor(options.host, options.allowedHosts)));

  app.use('/mcp', (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    if (!origin) return next();
    if (!originAllowed(origin))
      return rpcError(res, 403, RpcCode.Refused, `Origin ${origin} is not allowed.`);
    res.set({
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS,
      Vary: 'Origin',
    });
    if (req.method !== 'OPTIONS') return next();
    res
      .set({
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS,
        'Access-Control-Max-Age': '600',
      })
      .status(204)
      .end();
  });

  app.use('/mcp', express.json({ limit: MAX_BODY_BYTES }));

  app.post('/mcp', async (req: Request, res: Response) => {
    const id = idOf(req.body);
    const key = req.get('x-mcp-key');
    if (!key) {
      res.set('WWW-Authenticate', CHALLENGE);
      return rpcError(res, 401, RpcCode.KeyRefused, 'Send your MCP key in the X-MCP-Key header.', id);
    }
    const keyId = createHash('sha256').update(key).digest('hex');
    const cached = lists.get(keyId);
    const fresh = cached && Date.now() - cached.at <= ttl ? cached : undefined;
    const toolServer = new ToolServer({
      backend: new Backend({
        ...options.backend,
        baseUrl: options.baseUrl,
        key,
        clientAddress: req.socket.remoteAddress,
      }),
      runner: options.runner,
      version: options.version,
      refreshMs: ttl,
      ...(fresh ? { known: fresh } : {}),
      onRefresh: (names) => remember(keyId, names),
    });
    // A key not seen lately is checked first, once: a refused key, or a client told to wait, learns
    // why at once instead of being shown no tools.
    if (!fresh) {
      await toolServer.refresh(false);
      const refusal = toolServer.refusal;
      if (refusal) {
        if (refusal.status === 401) lists.delete(keyId);
        return refuse(res, refusal, id);
      }
    }
    const exchange = new HttpExchange(req, res);
    // A client gone before its answer: closing stops the handlers still working for it. After a full
    // answer nothing is in flight, and the server and exchange are left to the garbage collector
    // (closing them anyway costs an Error and its stack trace per request).
    res.on('close', () => {
      if (!res.writableFinished) void toolServer.server.close();
    });
    try {
      await toolServer.connect(exchange);
      exchange.handle(req.body);
    } catch (error) {
      if (!res.headersSent)
        rpcError(res, 500, RpcCode.InternalError, `Internal error: ${(error as Error).message}`, id);
    }
  });

  // Stateless: no server-initiated stream and no session to delete.
  app.all('/mcp', (_req: Request, res: Response) =>
    rpcError(res.set('Allow', 'POST'), 405, RpcCode.Refused, 'Method not allowed; POST JSON-RPC to /mcp.'),
  );
  app.use((req: Request, res: Response) =>
    rpcError(res, 404, RpcCode.Refused, `Nothing at ${req.path}; the MCP endpoint is POST /mcp.`),
  );

  // Body parser failures, in JSON-RPC rather than Express's HTML page (which shows a stack trace).
  app.use(
    (
      error: Error & { type?: string; status?: number },
      _req: Request,
      res: Response,
      _next: NextFunction,
    ) => {
      if (error.type === 'entity.parse.failed')
        return rpcError(res, 400, RpcCode.ParseError, 'Parse error: the body is not valid JSON.');
      if (error.type === 'entity.too.large')
        return rpcError(res, 413, RpcCode.Refused, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
      // Other body-parser refusals (an unknown charset, an aborted upload) are 4xx with a plain message.
      if (error.status && error.status >= 400 && error.status < 500)
        return rpcError(res, error.status, RpcCode.Refused, error.message);
      return rpcError(res, 500, RpcCode.InternalError, 'Internal error.');
    },
  );
  return app;
}
