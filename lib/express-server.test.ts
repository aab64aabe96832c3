// The HTTP server the mock, the programmatic API and the tool server listen with: requests and
// answers are born with the Express app's prototypes, so Express's per-request prototype switch
// changes nothing (why: lib/express-server.ts), and everything Express adds still works.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressServer } from './express-server.ts';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** An app answering what Express made of the request; listening through `listen`. */
async function serve(listen: (app: express.Express) => import('node:http').Server) {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.post('/echo/:id', express.json(), (req, res) => {
    res
      .status(201)
      .json({ id: req.params.id, query: req.query, body: req.body, ip: req.ip, app: req.app === app });
  });
  const server = listen(app);
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** How many prototype switches during one request changed the prototype of a request or an answer. */
async function switchesDuringOneRequest(base: string): Promise<number> {
  const original = Object.setPrototypeOf;
  let changed = 0;
  // Replaced by hand: a vitest spy calls Object.setPrototypeOf itself.
  Object.setPrototypeOf = (o: object, proto: object | null) => {
    const message = o instanceof IncomingMessage || o instanceof ServerResponse;
    if (message && Object.getPrototypeOf(o) !== proto) changed++;
    return original(o, proto);
  };
  try {
    const r = await fetch(`${base}/echo/7?x=1`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(201);
  } finally {
    Object.setPrototypeOf = original;
  }
  return changed;
}

describe('expressServer', () => {
  it('builds requests and answers with the app prototypes, so Express has none to switch', async () => {
    // The stock server is the contrast: the assertion on it shows the spy counts real switches.
    expect(await switchesDuringOneRequest(await serve((app) => app.listen(0, '127.0.0.1')))).toBe(2);
    expect(
      await switchesDuringOneRequest(await serve((app) => expressServer(app).listen(0, '127.0.0.1'))),
    ).toBe(0);
  });

  it('keeps what Express adds: route parameters, query, parsed body, client address, app', async () => {
    const base = await serve((app) => expressServer(app).listen(0, '127.0.0.1'));
    const r = await fetch(`${base}/echo/7?x=1`, {
      method: 'POST',
      body: JSON.stringify({ a: [1, 2] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await r.json()).toEqual({
      id: '7',
      query: { x: '1' },
      body: { a: [1, 2] },
      ip: '127.0.0.1',
      app: true,
    });
  });

  it('answers HEAD without a body and keeps the connection for the next request', async () => {
    const base = await serve((app) => expressServer(app).listen(0, '127.0.0.1'));
    const head = await fetch(`${base}/echo/1`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
    const again = await fetch(`${base}/echo/2`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect((await again.json()).id).toBe('2');
  });
});
