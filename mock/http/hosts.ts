// The mock's Host check (docs/mock.md, "Host names"), the tool server's own (lib/allowed-hosts.ts):
// every path, the admin API, `/`, the docs and the console included, is served only to a request whose
// Host names the mock — loopback names, the address it listens on, and those `--allowed-hosts` adds.
// Without it a page of evil.example, its name rebound to 127.0.0.1, would be of the same origin as
// the mock in the browser and could read v2 data and create v1 users. Others get 403 in the API's
// error shape (v1 `{status, message}`, else `{error, code}`), and nothing runs.
import type { Request, RequestHandler, Response } from 'express';
import { allowedHostsFor, type HostRefusal, hostCheck } from '../../lib/allowed-hosts.ts';
import { apiOf, sendApiError } from './apis.ts';

/**
 * The host names the mock serves: localhost's, the address it listens on (`host`; none when it
 * listens on every interface), and the names `extra` adds (--allowed-hosts).
 */
export function mockAllowedHosts(host: string, extra: string[] = []): string[] {
  return [...new Set([...allowedHostsFor(host), ...(extra.length ? allowedHostsFor(host, extra) : [])])];
}

/** A host name is the client's text: at most this much of it is repeated in the answer. */
const SHOWN = 100;

function sentence(refusal: HostRefusal): string {
  if (refusal.kind === 'missing')
    return 'The request has no Host header; the mock serves only requests that name it.';
  if (refusal.kind === 'malformed') return 'The Host header is not a host name (and a port).';
  const name = refusal.hostname.slice(0, SHOWN);
  return `Host ${name} is not served by this mock (a guard against DNS rebinding); start it with --allowed-hosts ${name} to serve that name.`;
}

export function mockHostCheck(allowed: readonly string[]): RequestHandler {
  return hostCheck(allowed, (req: Request, res: Response, refusal: HostRefusal) => {
    sendApiError(apiOf(req.originalUrl), res, 403, 'HOST_NOT_ALLOWED', sentence(refusal));
  });
}
