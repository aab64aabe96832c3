// Webhook delivery against a receiver that accepts connections and never answers, with the real
// `lmskit mock` under the common limit of 1 024 open files (docs/mock.md, Webhooks): 1 500 events
// hold at most 4 sockets, the queue stays bounded with the oldest deliveries dropped and recorded as
// such, every API request is answered, and after a restart the pending deliveries resume a few at a
// time.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEPT_FINISHED_DELIVERIES, MAX_PENDING_DELIVERIES } from '../../mock/domain/webhooks.ts';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { MAX_IN_FLIGHT } from '../../mock/webhooks/dispatcher.ts';
import { client, freePort, type RunningProcess, startLmskit } from './process.ts';

const EVENTS = 1_500;
const dir = mkdtempSync(join(tmpdir(), 'lmskit-webhooks-e2e-'));
const running: RunningProcess[] = [];
const sockets = new Set<Socket>();
let open = 0;
let mostOpen = 0;
let requests = 0;

/** Accepts every connection and request, and answers none. */
const receiver: Server = createServer(() => {
  requests++;
});
receiver.on('connection', (socket) => {
  sockets.add(socket);
  mostOpen = Math.max(mostOpen, ++open);
  socket.on('close', () => {
    sockets.delete(socket);
    open--;
  });
});

afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function startMock(port: number) {
  const p = await startLmskit(
    [
      'mock',
      '--port',
      String(port),
      '--admin-token',
      'e2e-admin-token-16',
      '--rate-limit',
      '0',
      // Attempts are not cut off while the test runs, however slow the machine: the sockets counted
      // are the ones the mock holds open, not ones it is closing while it opens the next.
      '--webhook-timeout',
      '600',
      '--state-file',
      join(dir, 'state.jsonl'),
    ],
    /ready/,
    {},
    { fileLimit: 1024 },
  );
  running.push(p);
  const base = `http://127.0.0.1:${port}`;
  return {
    p,
    v1: client(`${base}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY }),
    admin: client(`${base}/__admin`, { authorization: 'Bearer e2e-admin-token-16' }),
  };
}

/** Runs `task(i)` for i below `count`, `parallel` at a time; the statuses in order. */
async function inParallel(count: number, parallel: number, task: (i: number) => Promise<number>) {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        statuses[i] = await task(i);
      }
    }),
  );
  return statuses;
}

describe('a receiver that never answers (docs/mock.md, Webhooks: bounded)', () => {
  it(`keeps ${EVENTS} events to at most ${MAX_IN_FLIGHT} sockets and a bounded queue, answers every API request, and resumes gradually after a restart`, async () => {
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const port = await freePort();
    const first = await startMock(port);
    const created = await first.admin('/tenants/demo/webhooks', {
      method: 'POST',
      json: { url, secret: 'hanging-receiver', events: ['user.created'] },
    });
    expect(created.status).toBe(201);

    // Every user created is an event for the receiver; reads go on alongside.
    const writes = inParallel(EVENTS, 16, async (i) => {
      const user = {
        name: `Hook ${i}`,
        email: `hook${i}@example.test`,
        password: 'password1',
        roleAlias: 'learner',
      };
      return (await first.v1('/users', { method: 'POST', json: user })).status;
    });
    const reads = inParallel(300, 4, async () => (await first.v1('/courses')).status);
    expect(new Set(await writes)).toEqual(new Set([201]));
    expect(new Set(await reads)).toEqual(new Set([200]));
    expect(mostOpen).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(requests).toBeGreaterThan(0);

    const snapshot = (await first.admin('/snapshot')).body;
    const deliveries: { state: string; attempts: unknown[] }[] = snapshot.tenants.demo.deliveries;
    const count = (state: string) => deliveries.filter((d) => d.state === state).length;
    expect(count('pending')).toBe(MAX_PENDING_DELIVERIES);
    expect(count('dropped')).toBe(KEPT_FINISHED_DELIVERIES);
    expect(deliveries.find((d) => d.state === 'dropped')).toMatchObject({
      attempts: [],
      nextAttemptAt: null,
    });

    // After a restart the pending deliveries resume, still a few at a time.
    first.p.child.kill('SIGKILL');
    await first.p.exited;
    for (const s of sockets) s.destroy();
    mostOpen = 0;
    requests = 0;
    const second = await startMock(port);
    await expect.poll(() => requests, { timeout: 60_000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mostOpen).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect((await second.admin('/health')).status).toBe(200);
  });
});
