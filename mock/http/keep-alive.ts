// How long the mock keeps an idle connection open. Node's default, 5 s, is shorter than the pauses a
// client's own test suite makes between two requests (building a large fixture, a debugger, a busy
// machine): a client that reuses the connection just as the mock closes it gets "other side closed"
// for a request the mock never saw. 65 s, as common proxies keep them, leaves clients (which close an
// idle connection a second before the time the server announces) the room to close it first.
import type { Server } from 'node:http';

export const KEEP_ALIVE_MS = 65_000;

export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
}
