// The tool server over Streamable HTTP at /mcp. Stateless: every request carries its own `X-MCP-Key`,
// which is forwarded to the backend with the client's address, so each key sees its own tool list
// (cached briefly per key) and each client's failed logins count against that client alone.
// Security model (docs/mcp.md, "Security"): the Host header must name an allowed host (DNS
// rebinding), a browser's Origin must be an allowed origin (answered with CORS), the key is checked
// before the body is read (a client that has not authenticated costs no buffered body), the body and
// the time a request may take to arrive are bounded, uploads read only inside the upload root, and
// every answer, refusals included, is JSON-RPC.
import { createHash } from 'node:crypto';
import type { ServerOptions } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { allowedHostsFor, hostCheck, hostRefusalMessage } from '../lib/allowed-hosts.ts';
import { clientAddressOf, TRUST_NONE, type TrustProxy, trustProxyOf } from '../lib/client-address.ts';
import { Backend, type BackendOptions } from './backend.ts';
import { HttpExchange } from './http-exchange.ts';
import { idOf, RpcCode, type RpcId } from './rpc.ts';
import { type Refusal, refusalData, ToolServer } from './server.ts';
import type { ToolRunner } from './tools.ts';
import { UPLOADS_OFF, uploadRootOf } from './uploads.ts';

/** The largest request body read; the largest tool call (a 10 000-character prompt) is far smaller. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * How long a request may take to arrive whole, headers and body, and how often that is checked (Node
 * closes the connection of one that took longer): a client that stalls is dropped within 30 s, and a
 * tool call, a few KB at most, arrives in far less even on a slow link.
 */
export const REQUEST_TIMEOUT_MS = 25_000;
export const TIMEOUT_CHECK_MS = 5_000;

/** Node's options for the HTTP server the tool server listens with (`lib/express-server.ts`). */
export const SERVER_OPTIONS = {
  requestTimeout: REQUEST_TIMEOUT_MS,
  headersTimeout: REQUEST_TIMEOUT_MS,
  connectionsCheckingInterval: TIMEOUT_CHECK_MS,
} satisfies ServerOptions;

/**
 * The form of an MCP key (openapi/v2, securitySchemes.mcpKey): a 5-character type prefix ending in
 * `_`, then 43 characters of URL-safe base64. Anything else is refused without asking the platform,
 * and before the body is read.
 */
export const KEY_FORMAT = /^[A-Za-z0-9_-]{4}_[A-Za-z0-9_-]{43}$/;

// The Host check is the mock's too (lib/allowed-hosts.ts); re-exported for this server's callers.
export { allowedHostsFor, hostnameOf, LOOPBACK_HOSTS, listensEverywhere } from '../lib/allowed-hosts.ts';

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
  /**
   * The directory upload_source_material may read files in (`--upload-root`; symlinks resolved, only
   * regular files inside it); without it, uploads by file path are refused. Throws when it is not a
   * readable directory.
   */
  uploadRoot?: string;
  /**
   * The proxies whose X-Forwarded-For names the client (`--trust-proxy`: addresses, subnets,
   * `loopback`, `none`, or a compiled trust); by default none, and the client is the connection's peer.
   */
  trustProxy?: string | TrustProxy;
  /**
   * The key a request from this machine that sends no `X-MCP-Key` acts with (startMcpServer's `key`;
   * the command has none over HTTP). A request from another machine never acts with it: on a server
   * listening beyond loopback it must send its own key.
   */
  defaultKey?: string;
}

/** The connection's peer is this machine (never a forwarded address: the key is this process's own). */
const fromLoopback = (req: Request) => {
  const peer = req.socket.remoteAddress ?? '';
  return peer === '::1' || peer.startsWith('127.') || peer.startsWith('::ffff:127.');
};

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

type BodyError = Error & { type?: string; status?: number };

/** A body the parser refused, in JSON-RPC rather than Express's HTML page (which shows a stack trace). */
function bodyRefusal(res: Response, error: BodyError): void {
  // The client is gone (it stalled past the request timeout, or hung up): no one to answer.
  if (res.headersSent || res.destroyed) return;
  if (error.type === 'entity.parse.failed')
    return void rpcError(res, 400, RpcCode.ParseError, 'Parse error: the body is not valid JSON.');
  if (error.type === 'entity.too.large')
    return void rpcError(res, 413, RpcCode.Refused, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
  // Other body-parser refusals (an unknown charset, an aborted upload) are 4xx with a plain message.
  if (error.status && error.status >= 400 && error.status < 500)
    return void rpcError(res, error.status, RpcCode.Refused, error.message);
  rpcError(res, 500, RpcCode.InternalError, 'Internal error.');
}

const MALFORMED_KEY =
  'The X-MCP-Key header holds no MCP key: a key is 48 characters, a 5-character prefix ending in _ and 43 characters of URL-safe base64. Send the key your administrator gave you.';

export function createHttpApp(options: HttpOptions) {
  const uploads = options.uploadRoot
    ? { kind: 'inside' as const, root: uploadRootOf(options.uploadRoot) }
    : UPLOADS_OFF;
  const trust =
    typeof options.trustProxy === 'function'
      ? options.trustProxy
      : options.trustProxy
        ? trustProxyOf(options.trustProxy)
        : TRUST_NONE;
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
  app.use(
    hostCheck(allowedHostsFor(options.host, options.allowedHosts), (_req, res, refusal) =>
      rpcError(res, 403, RpcCode.Refused, hostRefusalMessage(refusal)),
    ),
  );

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

  const parseJson = express.json({ limit: MAX_BODY_BYTES });
  const readBody = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) =>
      parseJson(req, res, (error) => (error ? reject(error) : resolve())),
    );

  app.post('/mcp', async (req: Request, res: Response) => {
    // Everything that can be known before the body is checked before it is read: a refused request's
    // body is never buffered (Node reads what still comes and drops it), so clients without a key
    // cost the server no memory, however many send bodies, and JSON-RPC ids are unknown here (null).
    const key = req.get('x-mcp-key') || (fromLoopback(req) ? options.defaultKey : undefined);
    if (!key) {
      res.set('WWW-Authenticate', CHALLENGE);
      return rpcError(res, 401, RpcCode.KeyRefused, 'Send your MCP key in the X-MCP-Key header.');
    }
    if (!KEY_FORMAT.test(key)) {
      res.set('WWW-Authenticate', `${CHALLENGE}, error="invalid_key"`);
      return rpcError(res, 401, RpcCode.KeyRefused, MALFORMED_KEY);
    }
    const keyId = createHash('sha256').update(key).digest('hex');
    const cached = lists.get(keyId);
    const fresh = cached && Date.now() - cached.at <= ttl ? cached : undefined;
    const toolServer = new ToolServer({
      backend: new Backend({
        ...options.backend,
        baseUrl: options.baseUrl,
        key,
        clientAddress: clientAddressOf(req.socket.remoteAddress, req.get('x-forwarded-for'), trust),
      }),
      runner: options.runner,
      version: options.version,
      refreshMs: ttl,
      uploads,
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
        return refuse(res, refusal, null);
      }
    }
    try {
      await readBody(req, res);
    } catch (error) {
      return bodyRefusal(res, error as BodyError);
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
        rpcError(
          res,
          500,
          RpcCode.InternalError,
          `Internal error: ${(error as Error).message}`,
          idOf(req.body),
        );
    }
  });

  // Stateless: no server-initiated stream and no session to delete.
  app.all('/mcp', (_req: Request, res: Response) =>
    rpcError(res.set('Allow', 'POST'), 405, RpcCode.Refused, 'Method not allowed; POST JSON-RPC to /mcp.'),
  );
  app.use((req: Request, res: Response) =>
    rpcError(res, 404, RpcCode.Refused, `Nothing at ${req.path}; the MCP endpoint is POST /mcp.`),
  );

  // Anything thrown on the way, in JSON-RPC rather than Express's HTML page (which shows a stack trace).
  app.use((error: BodyError, _req: Request, res: Response, _next: NextFunction) => bodyRefusal(res, error));
  return app;
}
