// The tool server over Streamable HTTP at /mcp (docs/mcp.md). Stateless: every request carries
// its own `X-MCP-Key`, which is forwarded to the backend, so each key sees its own tool list (cached
// briefly per key). Bound to 127.0.0.1 by default, with the SDK's Host check and an Origin check
// against DNS rebinding.
import { createHash } from 'node:crypto';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { NextFunction, Request, Response } from 'express';
import { Backend, type BackendOptions } from './backend.ts';
import { ToolServer } from './server.ts';
import type { ToolRunner } from './tools.ts';

export interface HttpOptions {
  baseUrl: string;
  runner: ToolRunner;
  version: string;
  host: string;
  /** Origins besides those of localhost that may call the server (browsers send Origin). */
  allowedOrigins?: string[];
  /** How long a key's tool list is reused. */
  toolListTtlMs?: number;
  backend?: Partial<BackendOptions>;
}

const rpcError = (res: Response, status: number, code: number, message: string) =>
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

export function createHttpApp(options: HttpOptions) {
  const app = createMcpExpressApp({ host: options.host });
  const lists = new Map<string, { names: string[]; at: number }>();
  /** The tool lists of the last 1 000 keys, oldest out first. */
  const remember = (id: string, names: string[]) => {
    lists.delete(id);
    lists.set(id, { names, at: Date.now() });
    if (lists.size > 1000) lists.delete(lists.keys().next().value as string);
  };
  const ttl = options.toolListTtlMs ?? 5000;

  app.use('/mcp', (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    if (origin && !LOCAL_ORIGIN.test(origin) && !options.allowedOrigins?.includes(origin)) {
      return rpcError(res, 403, -32000, `Origin ${origin} is not allowed.`);
    }
    next();
  });

  app.post('/mcp', async (req: Request, res: Response) => {
    const key = req.get('x-mcp-key');
    if (!key) return rpcError(res, 401, -32001, 'Send your MCP key in the X-MCP-Key header.');
    const id = createHash('sha256').update(key).digest('hex');
    const known = lists.get(id);
    const toolServer = new ToolServer({
      backend: new Backend({ ...options.backend, baseUrl: options.baseUrl, key }),
      runner: options.runner,
      version: options.version,
      refreshMs: ttl,
      ...(known ? { known } : {}),
      onRefresh: (names) => remember(id, names),
    });
    // A key not seen lately is checked first: a refused key is told so, rather than shown no tools.
    if (!known || Date.now() - known.at > ttl) {
      await toolServer.refresh(false);
      if (toolServer.status === 401)
        return rpcError(res, 401, -32001, toolServer.problem ?? 'The MCP key is invalid or revoked.');
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void toolServer.server.close();
    });
    try {
      // A key not seen lately is checked first: a refused key is told so, rather than shown no tools.
      if (!known || Date.now() - known.at > ttl) {
        await toolServer.refresh(false);
        if (toolServer.status === 401) {
          lists.delete(id);
          return rpcError(res, 401, -32001, toolServer.problem ?? 'The MCP key is invalid or revoked.');
        }
      }
      await toolServer.server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      if (!res.headersSent) rpcError(res, 500, -32603, `Internal error: ${(error as Error).message}`);
    }
  });

  // Stateless: no server-initiated stream and no session to delete.
  const notAllowed = (_req: Request, res: Response) =>
    rpcError(res.set('Allow', 'POST'), 405, -32000, 'Method not allowed; POST JSON-RPC to /mcp.');
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
  return app;
}
