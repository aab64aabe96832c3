// The suite's requests (request.ts) do what fetch did for it: redirects, a deadline for the whole
// request, multipart forms; and an answer has a bound. Against a server on loopback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreachable } from './preflight.ts';
import { MAX_ANSWER_BYTES, request } from './request.ts';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const servers: Server[] = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What the echo server saw of a request, as its JSON answer. */
const echo: Handler = (req, body, res) => {
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-seen', ['one', 'two']);
  res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
};

let echoUrl = '';
beforeAll(async () => {
  echoUrl = await serve(echo);
});
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

describe('a request of the conformance suite', () => {
  it('sends method, headers and body, and reads status, every header and the text', async () => {
    const answer = await request(`${echoUrl}/x?y=1`, 'POST', { 'x-api-key': 'k' }, '{"a":1}', 5000);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-seen')).toBe('one, two');
    expect(JSON.parse(answer.text)).toMatchObject({
      method: 'POST',
      url: '/x?y=1',
      headers: { 'x-api-key': 'k' },
      body: '{"a":1}',
    });
  });

  it('follows redirects as fetch does: 307 keeps method and body, 303 becomes a GET, Authorization stays on its origin', async () => {
    const elsewhere = await serve(echo);
    const redirector = await serve((req, _body, res) => {
      const to: Record<string, [number, string]> = {
        '/keep': [307, '/kept'],
        '/see-other': [303, '/seen'],
        '/away': [308, `${elsewhere}/away`],
      };
      const [status, location] = to[req.url ?? ''] ?? [0, ''];
      if (status) {
        res.writeHead(status, { location });
        res.end();
      } else echo(req, '', res);
    });
    const kept = JSON.parse((await request(`${redirector}/keep`, 'PUT', {}, 'body', 5000)).text);
    expect(kept).toMatchObject({ method: 'PUT', url: '/kept' });
    const seen = JSON.parse(
      (await request(`${redirector}/see-other`, 'POST', { 'content-type': 'text/plain' }, 'x', 5000)).text,
    );
    expect(seen).toMatchObject({ method: 'GET', url: '/seen' });
    expect(seen.headers['content-type']).toBeUndefined();
    const away = JSON.parse(
      (
        await request(
          `${redirector}/away`,
          'GET',
          { authorization: 'Bearer t', 'x-api-key': 'k' },
          undefined,
          5000,
        )
      ).text,
    );
    expect(away.headers.authorization).toBeUndefined();
    expect(away.headers['x-api-key']).toBe('k');
  });

  it('encodes a multipart form with its boundary', async () => {
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4']), 'brief.pdf');
    const seen = JSON.parse((await request(`${echoUrl}/upload`, 'POST', {}, form, 5000)).text);
    expect(seen.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.body).toContain('filename="brief.pdf"');
    expect(seen.body).toContain('%PDF-1.4');
  });

  it('ends at the deadline with a TimeoutError, which the suite words as no answer in time', async () => {
    const silent = await serve(() => {});
    const error = await request(`${silent}/`, 'GET', {}, undefined, 200).catch((e: Error) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(unreachable(error, silent)).toBe('it did not answer in time');
  });

  it('refuses an answer larger than its bound, and the suite goes on', async () => {
    const huge = await serve((_req, _body, res) => {
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const more = () => {
        while (sent <= MAX_ANSWER_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const error = await request(`${huge}/`, 'GET', {}, undefined, 10_000).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/larger than 32 MB/);
    expect((await request(`${echoUrl}/after`, 'GET', {}, undefined, 5000)).status).toBe(200);
  });
});
