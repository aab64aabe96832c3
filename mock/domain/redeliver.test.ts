// Sending a webhook delivery's event again (docs/console.md, Webhooks; openapi/admin
// redeliverWebhookDelivery): a logged command that queues a new pending delivery of the same event
// to the same receiver, announced to the dispatcher through the platform, kept across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSeed } from '../seed/index.ts';
import { StateFile } from '../store/state-file.ts';
import { VirtualClock } from './clock.ts';
import { DomainError } from './errors.ts';
import { Platform } from './platform.ts';

let dir = '';
const files: StateFile[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lmskit-redeliver-'));
});
afterEach(() => {
  for (const file of files.splice(0)) file.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The demo seed, with the state file at `dir` replayed over it when `durable` (as mock/main.ts does). */
function start(durable = false): Platform {
  const seed = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
  platform.load(seed);
  if (durable) {
    const file = new StateFile(join(dir, 'state.jsonl'), { warn: () => {} });
    files.push(file);
    file.open(platform, {});
  }
  return platform;
}

/** A receiver, a published course (one event, one delivery) and that delivery delivered. */
function deliveredOnce(p: Platform) {
  const receiver = p.run('createReceiver', {
    tenantId: 'demo',
    url: 'http://127.0.0.1:9/hooks',
    secret: 's',
    events: null,
  });
  p.run('publishCourse', { tenantId: 'demo', courseId: 47 });
  const [delivery] = [...p.tenant('demo').deliveries.values()];
  if (!delivery) throw new Error('publishing queued no delivery');
  p.run('recordDeliveryAttempt', {
    tenantId: 'demo',
    deliveryId: delivery.id,
    attempt: { at: '2026-01-01T00:00:00.000Z', status: 200, error: null },
    state: 'delivered',
    nextAttemptAt: null,
  });
  return { receiver, delivery };
}

describe('redeliverWebhookDelivery (docs/console.md, Webhooks)', () => {
  it('queues a new pending delivery of the same event to the same receiver and leaves the original as it was', () => {
    const p = start();
    const { receiver, delivery } = deliveredOnce(p);
    const again = p.run('redeliverWebhookDelivery', { tenantId: 'demo', deliveryId: delivery.id });
    expect(again).toEqual({
      id: expect.stringMatching(/^dlv_\d+$/),
      receiverId: receiver.id,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      state: 'pending',
      attempts: [],
      nextAttemptAt: null,
      redeliveryOf: delivery.id,
    });
    expect(again.id).not.toBe(delivery.id);
    expect(p.tenant('demo').deliveries.get(delivery.id)).toMatchObject({
      state: 'delivered',
      attempts: [{ status: 200 }],
    });
  });

  it('tells the dispatcher through onDeliveriesQueued, as an event’s deliveries do, and not for a command that queues none', () => {
    const p = start();
    const heard: string[] = [];
    p.onDeliveriesQueued((tenant) => heard.push(tenant.id));
    p.run('createGroup', { tenantId: 'demo', input: { name: 'No receiver yet' } });
    expect(heard).toEqual([]);
    const { delivery } = deliveredOnce(p);
    expect(heard).toEqual(['demo']);
    p.run('redeliverWebhookDelivery', { tenantId: 'demo', deliveryId: delivery.id });
    expect(heard).toEqual(['demo', 'demo']);
  });

  it('is kept across a restart, like every acknowledged write (docs/mock.md, Durable state)', () => {
    const before = start(true);
    const { delivery } = deliveredOnce(before);
    const again = before.run('redeliverWebhookDelivery', { tenantId: 'demo', deliveryId: delivery.id });
    for (const file of files.splice(0)) file.close();
    const after = start(true);
    expect(after.tenant('demo').deliveries.get(again.id)).toEqual(again);
  });

  it('refuses an unknown delivery with NOT_FOUND and changes nothing', () => {
    const p = start();
    deliveredOnce(p);
    const before = JSON.stringify(p.snapshot());
    expect(() => p.run('redeliverWebhookDelivery', { tenantId: 'demo', deliveryId: 'dlv_999' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    expect(JSON.stringify(p.snapshot())).toBe(before);
  });

  it('refuses a delivery whose receiver or event a loaded snapshot lacks, with RECEIVER_REMOVED or EVENT_NOT_KEPT, and changes nothing', () => {
    const p = start();
    const { delivery } = deliveredOnce(p);
    const snapshot = p.snapshot();
    const demo = snapshot.tenants.demo;
    if (!demo) throw new Error('no demo tenant');
    p.loadSnapshot({ ...snapshot, tenants: { demo: { ...demo, receivers: [] } } });
    const refusal = (deliveryId: string) => {
      try {
        p.run('redeliverWebhookDelivery', { tenantId: 'demo', deliveryId });
      } catch (error) {
        return error as DomainError;
      }
      throw new Error('not refused');
    };
    const noReceiver = JSON.stringify(p.snapshot());
    expect(refusal(delivery.id)).toMatchObject({ kind: 'conflict', code: 'RECEIVER_REMOVED' });
    expect(JSON.stringify(p.snapshot())).toBe(noReceiver);

    p.loadSnapshot({ ...snapshot, tenants: { demo: { ...demo, events: [] } } });
    const noEvent = JSON.stringify(p.snapshot());
    expect(refusal(delivery.id)).toMatchObject({ kind: 'conflict', code: 'EVENT_NOT_KEPT' });
    expect(refusal(delivery.id)).toBeInstanceOf(DomainError);
    expect(JSON.stringify(p.snapshot())).toBe(noEvent);
  });
});
