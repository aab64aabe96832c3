// A webhook receiver that answers with a redirect, through the real `lmskit mock` (docs/mock.md,
// Webhooks): the mock does not follow it, so the signed body never reaches the host the redirect
// names; the attempt is recorded with the 3xx, as a failed one, and retried like any other.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { client, freePort, type RunningProcess, startLmskit } from './process.ts';

const TOKEN = 'webhook-redirect-e2e';
const running: RunningProcess[] = [];
const servers: Server[] = [];

afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a receiver that redirects (docs/mock.md, Webhooks: redirects are not followed)', () => {
  it.each([307, 302])(
    'a %i to another host is recorded as a failed attempt with its status, and nothing is sent there',
    async (status) => {
      const elsewhere: { method?: string; signature?: string }[] = [];
      const otherPort = await listen((req, res) => {
        elsewhere.push({ method: req.method, signature: req.headers['x-lmskit-signature'] as string });
        res.end();
      });
      let asked = 0;
      const receiverPort = await listen((_req, res) => {
        asked++;
        res.writeHead(status, { location: `http://localhost:${otherPort}/collect` }).end();
      });

      const port = await freePort();
      const p = await startLmskit(
        ['mock', '--port', String(port), '--admin-token', TOKEN, '--rate-limit', '0'],
        /ready/,
      );
      running.push(p);
      const base = `http://127.0.0.1:${port}`;
      const admin = client(`${base}/__admin`, { authorization: `Bearer ${TOKEN}` });
      const v1 = client(`${base}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY });
      expect(
        (
          await admin('/tenants/demo/webhooks', {
            method: 'POST',
            json: {
              url: `http://127.0.0.1:${receiverPort}/hook`,
              secret: 'redirect-secret',
              events: ['user.created'],
            },
          })
        ).status,
      ).toBe(201);
      const user = {
        name: 'Redirected',
        email: `redirected${status}@example.test`,
        password: 'password1',
        roleAlias: 'learner',
      };
      expect((await v1('/users', { method: 'POST', json: user })).status).toBe(201);

      // The first attempt is recorded; the next comes a second later (retried like any non-2xx).
      let delivery: any;
      await expect
        .poll(
          async () => {
            delivery = (await admin('/tenants/demo/webhooks/deliveries')).body.deliveries[0];
            return delivery?.attempts.length ?? 0;
          },
          { timeout: 20_000 },
        )
        .toBeGreaterThanOrEqual(1);
      expect(delivery.attempts[0]).toEqual({
        at: expect.any(String),
        status,
        error: `HTTP ${status}: a redirect (to http://localhost:${otherPort}/collect), not followed`,
      });
      expect(delivery.state).toBe('pending');
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(elsewhere).toEqual([]);
    },
  );
});
