// The Host check of every HTTP server the kit runs (the mock and the MCP tool server), one
// implementation for both. DNS rebinding: a page of evil.example whose name is made to point at this
// machine is, to the browser, of the same origin as the server it now reaches, and may read its
// answers; it still sends `Host: evil.example`. So a request is served only when its Host names this
// server (docs/mock.md, "Host names"; docs/mcp.md, "Security").
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

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

/** Why a Host header is not served: none sent, one that is no host name, or a name not in the list. */
export type HostRefusal =
  | { kind: 'missing' }
  | { kind: 'malformed'; host: string }
  | { kind: 'not-allowed'; hostname: string };

/** Characters an authority (`name:port`) never holds; `new URL` would read a path or user out of them. */
const NOT_AN_AUTHORITY = /[\s/\\@?#]/;

/** Null when `host` (a Host header) names one of `allowed`, else why not. */
export function hostRefusal(host: string | undefined, allowed: readonly string[]): HostRefusal | null {
  if (!host) return { kind: 'missing' };
  if (NOT_AN_AUTHORITY.test(host)) return { kind: 'malformed', host };
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return { kind: 'malformed', host };
  }
  return allowed.includes(hostname) ? null : { kind: 'not-allowed', hostname };
}

/** The sentence the MCP SDK's own check gives for each refusal, which the tool server keeps. */
export function hostRefusalMessage(refusal: HostRefusal): string {
  if (refusal.kind === 'missing') return 'Missing Host header';
  if (refusal.kind === 'malformed') return `Invalid Host header: ${refusal.host}`;
  return `Invalid Host: ${refusal.hostname}`;
}

/** Verdicts remembered, by Host header; a client sends the same one on every request. */
const REMEMBERED = 64;

/**
 * Express middleware: a request whose Host is not served is answered by `refuse` (each server in its
 * own error shape) and goes no further.
 */
export function hostCheck(
  allowed: readonly string[],
  refuse: (req: Request, res: Response, refusal: HostRefusal) => void,
): RequestHandler {
  // A client sends the same Host on every request: the verdicts of the last few are kept rather than
  // the header parsed as a URL each time.
  const verdicts = new Map<string, HostRefusal | null>();
  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.headers.host;
    let refusal = host === undefined ? undefined : verdicts.get(host);
    if (refusal === undefined) {
      refusal = hostRefusal(host, allowed);
      if (host !== undefined) {
        if (verdicts.size >= REMEMBERED) verdicts.clear();
        verdicts.set(host, refusal);
      }
    }
    if (refusal) refuse(req, res, refusal);
    else next();
  };
}
