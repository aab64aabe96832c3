// How long the mock keeps a connection open. Idle: Node's default, 5 s, is shorter than the pauses a
// client's own test suite makes between two requests (building a large fixture, a debugger, a busy
// machine): a client that reuses the connection just as the mock closes it gets "other side closed"
// for a request the mock never saw. 65 s, as common proxies keep them, leaves clients (which close an
// idle connection a second or two before the time the server announces; Node's own server waits a
// second past it) the room to close it first. And when the time runs out while the event loop is
// busy, a request that has reached the connection meanwhile is answered, not reset
// (lib/express-server.ts, `closeUnlessUsed`).
import type { Server } from 'node:http';

export const KEEP_ALIVE_MS = 65_000;

export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
}

// A request in progress: how long its headers and its whole body may take to arrive (docs/mock.md,
// "Bounds"). A client that sends part of a body and stalls would hold its connection, and what was
// read of the body, for Node's default of 5 minutes; past these the connection is answered 408 in the
// API's error shape (refusals.ts) and closed. Ample for any request a client on the same machine or
// network sends, a 20 MB upload included.
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 25_000;

/**
 * Node's server options for those bounds. Node looks for expired requests only every
 * `connectionsCheckingInterval` (30 s by default, which would let a stalled body stay a minute), so
 * every second here: a stalled request is dropped within 26 s.
 */
export const REQUEST_TIMEOUTS = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionsCheckingInterval: 1_000,
} as const;
