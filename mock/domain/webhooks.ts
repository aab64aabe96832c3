// Webhook receivers and the deliveries of events to them (seed 001, Events: "Registration of
// receiving URLs: not shown. Delivery retries and signature scheme: not shown"; docs/mock.md,
// Webhooks). A delivery is made in the same command that emits its event, so a write and its
// deliveries reach the command log as one entry. What a receiver accumulates is bounded: a queue of
// pending deliveries (the oldest is dropped, and says so, when it overflows) and a history of
// finished ones (the oldest forgotten). Sending them is ../webhooks/dispatcher.ts.
import { conflict, notFound } from './errors.ts';
import type { EventType, PlatformEvent, WebhookDelivery, WebhookReceiver } from './model.ts';
import type { TenantState } from './tenant-state.ts';

/** Pending deliveries kept per receiver; past it the oldest pending one is dropped. */
export const MAX_PENDING_DELIVERIES = 1000;
/** Finished deliveries (delivered, failed, dropped) kept per receiver, newest; older ones are forgotten. */
export const KEPT_FINISHED_DELIVERIES = 100;

export function createReceiver(
  t: TenantState,
  input: { url: string; secret: string; events: EventType[] | null },
  at: number,
): WebhookReceiver {
  const receiver: WebhookReceiver = { id: `wh_${t.nextId('receiver')}`, ...input, createdAt: at };
  t.receivers.set(receiver.id, receiver);
  return receiver;
}

/** Removes a receiver and its deliveries, pending or not: nothing is sent to it any more. */
export function deleteReceiver(t: TenantState, receiverId: string): WebhookReceiver {
  const receiver = t.receivers.get(receiverId);
  if (!receiver) throw notFound(`webhook receiver ${receiverId}`);
  t.receivers.delete(receiverId);
  for (const [id, d] of t.deliveries) if (d.receiverId === receiverId) t.deliveries.delete(id);
  return receiver;
}

/** One pending delivery of a just-emitted event to each receiver that wants it. */
export function queueDeliveries(t: TenantState, event: PlatformEvent): void {
  for (const receiver of t.receivers.values()) {
    if (receiver.events && !receiver.events.includes(event.type)) continue;
    queue(t, receiver.id, event);
  }
}

/**
 * A new pending delivery of a delivery's event to its receiver, whatever state the delivery is in
 * (docs/console.md, Webhooks): the original stays as it is, the new one has attempts and bounds of
 * its own and the same event id, so a receiver that drops repeats drops it too.
 */
export function redeliver(t: TenantState, deliveryId: string): WebhookDelivery {
  const original = t.deliveries.get(deliveryId);
  if (!original) throw notFound(`delivery ${deliveryId}`);
  // Removing a receiver removes its deliveries, so these two happen only in a state loaded from a
  // snapshot that lacks them; sending would fail on every attempt.
  if (!t.receivers.has(original.receiverId))
    throw conflict(
      'RECEIVER_REMOVED',
      `The receiver ${original.receiverId} of delivery ${deliveryId} was removed; register it again and send a new event.`,
    );
  const event = t.eventById(original.eventId);
  if (!event)
    throw conflict(
      'EVENT_NOT_KEPT',
      `The event evt_${original.eventId} of delivery ${deliveryId} is no longer kept.`,
    );
  return queue(t, original.receiverId, event, deliveryId);
}

function queue(
  t: TenantState,
  receiverId: string,
  event: PlatformEvent,
  redeliveryOf?: string,
): WebhookDelivery {
  const delivery: WebhookDelivery = {
    id: `dlv_${t.nextId('delivery')}`,
    receiverId,
    eventId: event.id,
    eventType: event.type,
    state: 'pending',
    attempts: [],
    nextAttemptAt: null,
    ...(redeliveryOf ? { redeliveryOf } : {}),
  };
  t.deliveries.set(delivery.id, delivery);
  keepWithinBounds(t, receiverId);
  return delivery;
}

/**
 * Notes an attempt on a pending delivery and its new state. A delivery that stopped being pending
 * while the attempt was on its way (dropped from a full queue) stays as it is.
 */
export function recordAttempt(
  t: TenantState,
  deliveryId: string,
  attempt: WebhookDelivery['attempts'][number],
  state: WebhookDelivery['state'],
  nextAttemptAt: string | null,
): WebhookDelivery {
  const delivery = t.deliveries.get(deliveryId);
  if (!delivery) throw notFound(`delivery ${deliveryId}`);
  if (delivery.state !== 'pending') return delivery;
  delivery.attempts.push(attempt);
  delivery.state = state;
  delivery.nextAttemptAt = nextAttemptAt;
  if (state !== 'pending') keepWithinBounds(t, delivery.receiverId);
  return delivery;
}

/** Drops the oldest pending deliveries past the queue's bound, then forgets the oldest finished ones. */
function keepWithinBounds(t: TenantState, receiverId: string): void {
  const pending: WebhookDelivery[] = [];
  for (const d of t.deliveries.values())
    if (d.receiverId === receiverId && d.state === 'pending') pending.push(d);
  for (const d of pending.slice(0, Math.max(0, pending.length - MAX_PENDING_DELIVERIES))) {
    d.state = 'dropped';
    d.nextAttemptAt = null;
  }
  // Map order is creation order, so the finished ones come oldest first.
  const finished: string[] = [];
  for (const d of t.deliveries.values())
    if (d.receiverId === receiverId && d.state !== 'pending') finished.push(d.id);
  for (const id of finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED_DELIVERIES)))
    t.deliveries.delete(id);
}
