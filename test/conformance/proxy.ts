// A fault-injecting HTTP proxy for the conformance suite's own tests: it stands in front of the real
// mock (and of an MCP tool server at /mcp) and makes the deployment depart from the contract in the
// ways a real one would — answers rewritten, filters ignored, writes answered but not kept, a check
// skipped — while everything else goes through to the real thing.
//
// Why a proxy and not the mock's own faults (`/__admin/faults`): a fault replaces an answer with a
// fixed one. A departure is usually subtler: the real answer with one number off, a query parameter
// dropped before the platform sees it, a write acknowledged and never made. Those need the request
// and the real answer in hand, which only something in between has.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from '../../conformance/request.ts';

export interface ProxiedRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** JSON to send, or raw bytes. */
  body?: unknown;
}

export interface Rewrite {
  method?: string;
  /** The request path (without the query), exactly or by a pattern. */
  path: string | RegExp;
  /** Changes the request before it goes on (mutate it), or answers it here instead. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only mutates returns nothing.
  request?: (req: ProxiedRequest) => Answer | undefined | void;
  /** Changes the answer (mutate it, or return another). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only mutates returns nothing.
  response?: (answer: Answer & { body: unknown }, req: ProxiedRequest) => Answer | undefined | void;
}

/** Whether a rewrite applies to a request: its method (if it names one) and its path. */
export const matches = (r: Rewrite, req: ProxiedRequest) =>
  (!r.method || r.method === req.method) &&
  (typeof r.path === 'string' ? r.path === req.path : r.path.test(req.path));

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export interface FaultProxy {
  url: string;
  /** Where /mcp goes (set once the tool server, which calls back through the proxy, is up). */
  toolServer: string;
  rewrites: Rewrite[];
  close: () => Promise<void>;
}

/** A proxy to `upstream`; `/mcp` goes to `proxy.toolServer`. */
export async function startProxy(upstream: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: '', toolServer: '', rewrites: [], close: async () => {} };
  const server: Server = createServer(async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? '/', 'http://proxy.invalid');
      const body = await readBody(incoming);
      const headers = Object.fromEntries(
        Object.entries(incoming.headers)
          .filter(([k, v]) => !HOP.has(k) && typeof v === 'string')
          .map(([k, v]) => [k, v as string]),
      );
      const req: ProxiedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers,
        body,
      };
      if ((headers['content-type'] ?? '').includes('application/json') && body.length) {
        try {
          req.json = JSON.parse(body.toString('utf8'));
        } catch {}
      }
      const active = proxy.rewrites.filter((r) => matches(r, req));
      let answer: Answer | undefined;
      for (const r of active) {
        answer = r.request?.(req) ?? undefined;
        if (answer) break;
      }
      if (!answer) {
        const base = req.path.startsWith('/mcp') ? proxy.toolServer : upstream;
        const sent = req.json !== undefined ? Buffer.from(JSON.stringify(req.json)) : body;
        const query = req.query.toString();
        // The suite's node:http client (the proxy passes on every request of the matrix's runs); asked
        // for no compression, the answer comes as the bytes it is.
        const { 'accept-encoding': _, ...forwarded } = req.headers;
        const response = await request(
          `${base}${req.path}${query ? `?${query}` : ''}`,
          req.method,
          forwarded,
          sent.length && req.method !== 'GET' ? sent : undefined,
          60_000,
        );
        const raw = response.body;
        const type = response.headers.get('content-type') ?? '';
        let parsed: unknown = raw;
        if (type.includes('application/json') && raw.length) parsed = JSON.parse(raw.toString('utf8'));
        let real: Answer & { body: unknown } = {
          status: response.status,
          headers: Object.fromEntries([...response.headers].filter(([k]) => !HOP.has(k))),
          body: raw.length ? parsed : undefined,
        };
        for (const r of active) real = (r.response?.(real, req) as typeof real | undefined) ?? real;
        answer = real;
      }
      const isRaw = Buffer.isBuffer(answer.body);
      const bytes =
        answer.body === undefined
          ? Buffer.alloc(0)
          : isRaw
            ? (answer.body as Buffer)
            : Buffer.from(JSON.stringify(answer.body));
      const out = { ...(answer.headers ?? {}) };
      for (const k of Object.keys(out)) if (k.toLowerCase() === 'content-type' && !isRaw) delete out[k];
      if (answer.body !== undefined && !isRaw) out['content-type'] = 'application/json; charset=utf-8';
      outgoing.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
      outgoing.end(bytes);
    } catch (error) {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${(error as Error).message}`);
    }
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
