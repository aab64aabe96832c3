// A round-robin HTTP balancer for the tests of a shared sandbox (docs/mock.md, Shared sandbox:
// "behind any HTTP balancer"): each request goes to the next replica, whatever connection it came
// on, so a client's keep-alive connection is never pinned to one replica and a request on a new
// connection takes the next turn as well. Bodies and headers are streamed through as they come, in
// both directions, without the hop-by-hop headers (RFC 9110, 7.6.1), which belong to each connection;
// the client's address is appended to X-Forwarded-For as a reverse proxy does, so a mock that trusts
// this balancer (`--trust-proxy`, default loopback) counts failed logins per client, not per balancer.
import {
  Agent,
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Hop-by-hop headers: those of one connection, which a proxy does not pass on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A message's headers without the hop-by-hop ones, nor those its `Connection` header names; a header
 * sent once stays one string (Node's client takes `Host` only so), one sent more often each value.
 */
function endToEnd(headers: Record<string, string[] | undefined>): OutgoingHttpHeaders {
  const named = new Set(
    (headers.connection ?? []).flatMap((v) => v.split(',').map((h) => h.trim().toLowerCase())),
  );
  const kept: OutgoingHttpHeaders = {};
  for (const [name, values] of Object.entries(headers))
    if (values && !HOP_BY_HOP.has(name) && !named.has(name))
      kept[name] = values.length === 1 ? values[0] : values;
  return kept;
}

export interface RoundRobin {
  url: string;
  /** Requests each upstream was sent, in the order of `upstreams`. */
  served: number[];
  close: () => Promise<void>;
}

export async function startRoundRobin(upstreams: string[]): Promise<RoundRobin> {
  // One pool of keep-alive connections per replica, as a balancer keeps.
  const agents = upstreams.map(() => new Agent({ keepAlive: true }));
  const served = upstreams.map(() => 0);
  let turn = 0;
  const server = createServer((incoming, outgoing) => {
    const i = turn++ % upstreams.length;
    /** The balancer's own failure, as a balancer reports one: 502, never a request left hanging. */
    const badGateway = (error: Error) => {
      if (outgoing.headersSent) outgoing.destroy();
      else {
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`round-robin: ${upstreams[i]} ${error.message}`);
      }
    };
    try {
      forward(i, incoming, outgoing, badGateway);
    } catch (error) {
      badGateway(error as Error);
    }
  });
  const forward = (
    i: number,
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    badGateway: (error: Error) => void,
  ) => {
    served[i] = (served[i] ?? 0) + 1;
    const target = new URL(upstreams[i] as string);
    const headers = endToEnd(incoming.headersDistinct);
    const peer = incoming.socket.remoteAddress ?? '';
    const before = incoming.headersDistinct['x-forwarded-for'];
    headers['x-forwarded-for'] = [...(before ?? []), peer].join(', ');
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers,
        agent: agents[i],
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headersDistinct));
        answer.pipe(outgoing);
        answer.on('error', () => outgoing.destroy());
      },
    );
    upstream.on('error', badGateway);
    // A client that goes away takes its upstream request with it.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  };
  // As the mock does (docs/mock.md, Command line): an idle connection is kept past the time clients
  // give it, so a client never reuses one the balancer has just closed.
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        for (const agent of agents) agent.destroy();
      }),
  };
}
