// The running mock, composed in one place: the app over a platform, the webhook dispatcher, and the
// HTTP server with the request bounds, the answers to malformed requests and the kept-alive idle
// connections. `lmskit mock` (mock/main.ts), the package's `startMock` (package/start-mock.ts), the
// HTTP tests' harness and the screenshot scripts all start it here, so what a test or a picture meets
// is what a user runs. What differs between them is the platform they hand in (a seed, fixtures, a
// state file) and the options below.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listensEverywhere } from '../lib/allowed-hosts.ts';
import { expressServer } from '../lib/express-server.ts';
import { type AppOptions, createApp } from './app.ts';
import { keepIdleConnections, REQUEST_TIMEOUTS } from './http/keep-alive.ts';
import { answerClientErrors } from './http/refusals.ts';
import { type DeliveryClaims, WebhookDispatcher } from './webhooks/dispatcher.ts';

export interface ServerOptions extends AppOptions {
  /** The port (0: a free one) and the interface; 127.0.0.1 unless named. */
  port?: number;
  host?: string;
  /**
   * Deliver webhooks to the tenants' receivers (default true). The in-process HTTP tests turn it
   * off and deliver when they choose (`WebhookDispatcher` of their own).
   */
  webhooks?: boolean;
  /** How long a receiver may take to answer a delivery (default the dispatcher's). */
  webhookTimeoutMs?: number;
  /** With a shared store: the claims that let one replica send each webhook attempt. */
  deliveryClaims?: DeliveryClaims;
}

export interface RunningMock extends ReturnType<typeof createApp> {
  server: Server;
  /** The base URL: the bound port, and 127.0.0.1 when listening on every interface (a host the Host check serves). */
  url: string;
  port: number;
  /** Stops deliveries, closes the port and every open connection; safe to call twice. */
  close(): Promise<void>;
}

/** Starts the mock over `options.platform`; resolves once it listens, rejects if it cannot. */
export async function startServer(options: ServerOptions): Promise<RunningMock> {
  const {
    port = 0,
    host = '127.0.0.1',
    webhooks = true,
    webhookTimeoutMs,
    deliveryClaims,
    ...appOptions
  } = options;
  const made = createApp(appOptions);
  const dispatcher = webhooks
    ? new WebhookDispatcher(options.platform, {
        ...(webhookTimeoutMs === undefined ? {} : { timeoutMs: webhookTimeoutMs }),
        ...(deliveryClaims ? { claims: deliveryClaims } : {}),
      })
    : undefined;
  dispatcher?.start();

  const server = expressServer(made.app, REQUEST_TIMEOUTS).listen(port, host);
  answerClientErrors(server);
  keepIdleConnections(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    dispatcher?.stop();
    throw error;
  }
  // On a running clock, jobs finish on their own time even when no request comes (seed 000, AI tools).
  const stopJobTimer = options.platform.settleJobsOnTime();
  const bound = (server.address() as AddressInfo).port;
  const shown = listensEverywhere(host) ? '127.0.0.1' : host;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}`;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      dispatcher?.stop();
      stopJobTimer();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };
  return { ...made, server, url, port: bound, close };
}
