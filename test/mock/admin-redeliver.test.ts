// Sending a webhook delivery again over HTTP (openapi/admin redeliverWebhookDelivery; docs/console.md,
// Webhooks), with the real dispatcher and a receiver on loopback: the new delivery arrives with the
// same body, event id and signature, woken by the platform, not a poll. Bad input is refused in the
// admin error shape and changes nothing. Every answer is checked against the contract by the harness.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../mock/webhooks/dispatcher.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
let receiver: Server;
let url = '';
let dispatcher: WebhookDispatcher;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  h = await startHarness();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  dispatcher = new WebhookDispatcher(h.platform, { baseDelayMs: 20 });
  dispatcher.start();
});
afterAll(async () => {
  dispatcher.stop();
  await new Promise((resolve) => receiver.close(resolve));
  await h.close();
});

const deliveries = async () => (await h.admin('/tenants/demo/webhooks/deliveries')).body.deliveries;
// Waits for the delivery itself, however long a busy machine takes; the test timeout bounds it.
const until = async (check: () => boolean | Promise<boolean>) => {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
};
const stateOf = () => JSON.stringify(h.platform.snapshot());

describe('redeliverWebhookDelivery (docs/console.md, Webhooks)', () => {
  let original: { id: string; eventId: string };

  beforeAll(async () => {
    await h.admin('/tenants/demo/webhooks', { method: 'POST', json: { url, secret: 'redeliver-secret' } });
    await h.admin('/tenants/demo/courses/47/publish', { method: 'POST' });
    await until(async () => (await deliveries())[0]?.state === 'delivered');
    [original] = await deliveries();
  });

  it('answers 202 with a new pending delivery of the same event, which the receiver then gets again, byte for byte', async () => {
    expect(received).toHaveLength(1);
    const answer = await h.admin(`/tenants/demo/webhooks/deliveries/${original.id}/redeliver`, {
      method: 'POST',
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      receiverId: expect.stringMatching(/^wh_/),
      eventId: original.eventId,
      eventType: 'course.published',
      redeliveryOf: original.id,
      attempts: [],
    });
    expect(answer.body.id).not.toBe(original.id);
    // No event and no clock move: the dispatcher was woken by the queued delivery itself.
    await until(() => received.length === 2);
    const [first, again] = received;
    expect(again?.body).toBe(first?.body);
    expect(again?.headers['x-lmskit-event-id']).toBe(original.eventId);
    expect(again?.headers['x-lmskit-signature']).toBe(first?.headers['x-lmskit-signature']);
    await until(async () => (await deliveries())[0]?.state === 'delivered');
    const [newest, previous] = await deliveries();
    expect(newest).toMatchObject({ id: answer.body.id, state: 'delivered', redeliveryOf: original.id });
    expect(previous).toMatchObject({ id: original.id, state: 'delivered' });
    expect(previous).not.toHaveProperty('redeliveryOf');
  });

  it('refuses an unknown delivery or tenant with 404 NOT_FOUND, and changes nothing', async () => {
    const before = stateOf();
    const missing = await h.admin('/tenants/demo/webhooks/deliveries/dlv_999999/redeliver', {
      method: 'POST',
    });
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(missing.body.error).toContain('dlv_999999');
    const noTenant = await h.admin(`/tenants/nowhere/webhooks/deliveries/${original.id}/redeliver`, {
      method: 'POST',
    });
    expect(noTenant).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(stateOf()).toBe(before);
  });

  it('refuses a malformed delivery id with 400 VALIDATION_ERROR, and changes nothing', async () => {
    const before = stateOf();
    const bad = await h.admin('/tenants/demo/webhooks/deliveries/not-a-delivery/redeliver', {
      method: 'POST',
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(bad.body.error).toContain('deliveryId');
    expect(stateOf()).toBe(before);
  });

  it('refuses with 409 RECEIVER_REMOVED a delivery whose receiver a loaded snapshot lacks, and changes nothing', async () => {
    const snapshot = (await h.admin('/snapshot')).body;
    snapshot.tenants.demo.receivers = [];
    expect((await h.admin('/snapshot', { method: 'PUT', json: snapshot })).status).toBe(200);
    const before = stateOf();
    const refused = await h.admin(`/tenants/demo/webhooks/deliveries/${original.id}/redeliver`, {
      method: 'POST',
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'RECEIVER_REMOVED' } });
    expect(refused.body.error).toContain(original.id);
    expect(stateOf()).toBe(before);
  });
});
