// Webhook receivers and the outcome of each delivery attempt; the rules are ../webhooks.ts.
import type { EventType, WebhookDelivery } from '../model.ts';
import type { Platform } from '../platform.ts';
import { createReceiver, deleteReceiver, recordAttempt, redeliver } from '../webhooks.ts';

export const WEBHOOK_COMMANDS = {
  createReceiver: (
    p: Platform,
    a: { tenantId: string; url: string; secret: string; events: EventType[] | null },
  ) => createReceiver(p.tenant(a.tenantId), a, p.now()),

  deleteReceiver: (p: Platform, a: { tenantId: string; receiverId: string }) =>
    deleteReceiver(p.tenant(a.tenantId), a.receiverId),

  redeliverWebhookDelivery: (p: Platform, a: { tenantId: string; deliveryId: string }) =>
    redeliver(p.tenant(a.tenantId), a.deliveryId),

  recordDeliveryAttempt: (
    p: Platform,
    a: {
      tenantId: string;
      deliveryId: string;
      attempt: WebhookDelivery['attempts'][number];
      state: WebhookDelivery['state'];
      nextAttemptAt: string | null;
    },
  ) => recordAttempt(p.tenant(a.tenantId), a.deliveryId, a.attempt, a.state, a.nextAttemptAt),
};
