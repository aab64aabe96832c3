// Who the client of an HTTP request is, for the failed-login limit per client (seed 000 "Errors": 429
// MCP_AUTH_RATE_LIMITED per IP): the mock counts it, and the tool server names it to the platform in
// X-Forwarded-For (mcp-server/backend.ts). Behind a reverse proxy every connection comes from the
// proxy, so with `--trust-proxy` (addresses, subnets, loopback or none; both commands take it) the
// client is read from the proxies' X-Forwarded-For, right to left, up to the first hop not trusted.
// Only a well-formed IP address is ever taken from the header: junk there (a name, a port, brackets,
// an 8 KB string) is not an address that could be counted — a name that changes with every request
// would never be locked out, and each would take a row of the limit's table — so the trusted hop
// that passed it on is taken as the client instead.
import { isIP } from 'node:net';
import express from 'express';

/** Whether the hop `address`, `hop` steps from the server (0: the connection's peer), is a trusted proxy. */
export type TrustProxy = (address: string, hop: number) => boolean;

export const TRUST_NONE: TrustProxy = () => false;

/**
 * The trust of a `--trust-proxy` value, compiled as Express compiles its `trust proxy` setting (the
 * mock's flag takes the same values); `none` trusts no one. An Error with one sentence otherwise.
 */
export function trustProxyOf(value: string): TrustProxy {
  const why = (reason: string) =>
    new Error(`--trust-proxy takes addresses, subnets, loopback or none: ${reason}`);
  if (value.trim() === 'none') return TRUST_NONE;
  if (value.split(',').some((entry) => entry.trim() === '')) throw why(`"${value}" has an empty entry`);
  try {
    return express().set('trust proxy', value).get('trust proxy fn') as TrustProxy;
  } catch (error) {
    throw why((error as Error).message);
  }
}

/**
 * A `--trust-proxy` value as Express's `trust proxy` setting (the mock's), checked as `trustProxyOf`
 * checks the tool server's: `none` is `false`; an Error with one sentence for a value it refuses.
 */
export function trustProxySetting(value: string): string | false {
  return trustProxyOf(value) === TRUST_NONE ? false : value;
}

/** The longest IPv6 text (`ffff:…:255.255.255.255`). */
const MAX_ADDRESS = 45;

/** A single IP address, as the limit can count it: no port, no brackets, no zone. */
const isAddress = (text: string) => text.length <= MAX_ADDRESS && isIP(text) !== 0 && !text.includes('%');

/**
 * The client's address: the connection's peer, or, while that hop is trusted, the address it names
 * before it in X-Forwarded-For (Node joins repeated headers with commas, the order they came in).
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trust: TrustProxy,
): string | undefined {
  if (!peer) return undefined;
  const hops = forwardedFor ? forwardedFor.split(',').map((h) => h.trim()) : [];
  let client = peer;
  for (let hop = 0; hop < hops.length && trust(client, hop); hop++) {
    const named = hops[hops.length - 1 - hop] as string;
    if (!isAddress(named)) break;
    client = named;
  }
  return client;
}
