// The tool server's connections to the platform are kept open (docs/mcp.md, "How a call is served"),
// so it meets the race of every keep-alive client: the platform closes an idle connection just as a
// request goes out on it. A read is then sent again on a new connection and the agent never notices;
// a write is not, since the platform may have acted on it, and the agent reads that the platform
// could not be reached (seed 000, Errors: readable strings).

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend, keepAliveAgent } from '../../mcp-server/backend.ts';

/** A platform that answers the first request of each connection and drops the connection at the second. */
let platform: Server;
let baseUrl = '';
const received: string[] = [];

beforeAll(async () => {
  platform = createServer((socket: Socket) => {
    let requests = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // Requests without a body (GET) or with a Content-Length body: one per blank line is enough here.
      while (buffered.includes('\r\n\r\n')) {
        const end = buffered.indexOf('\r\n\r\n') + 4;
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + length) return;
        buffered = buffered.slice(end + length);
        requests++;
        received.push(head.split(' ', 2).join(' '));
        if (requests > 1) {
          socket.destroy();
          return;
        }
        const body = '{"ok":true}';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
        );
      }
    });
  });
  platform.listen(0, '127.0.0.1');
  await new Promise((r) => platform.once('listening', r));
  baseUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
});
afterAll(() => {
  platform.close();
});

const backend = () => new Backend({ baseUrl, key: 'lmcp_test', agent: keepAliveAgent() });

describe('a kept-alive connection the platform dropped', () => {
  it('a read is sent again on a new connection and answered', async () => {
    const b = backend();
    expect((await b.request({ method: 'GET', path: '/courses/1' })).status).toBe(200);
    received.length = 0;
    const again = await b.request({ method: 'GET', path: '/courses/1' });
    expect(again).toMatchObject({ status: 200, body: { ok: true } });
    expect(received).toEqual(['GET /api/v2/courses/1', 'GET /api/v2/courses/1']);
  });

  it('a write is not sent again: the answer says the platform could not be reached', async () => {
    const b = backend();
    expect((await b.request({ method: 'GET', path: '/courses/1' })).status).toBe(200);
    received.length = 0;
    const write = await b.request({ method: 'POST', path: '/courses/1/clone', body: {} });
    expect(write.status).toBe(503);
    expect(write.body).toMatchObject({ code: 'BACKEND_UNREACHABLE' });
    expect(received).toEqual(['POST /api/v2/courses/1/clone']);
  });
});
