// Webhook receivers and the outcome of each delivery attempt; the rules are ../webhooks.ts.
import type { EventType, WebhookDelivery } from '../model.ts';
import { createReceiver, deleteReceiver, recordAttempt, redeliver } from '../webhooks.ts';
import type { CommandPlatform } from './command.ts';

export const WEBHOOK_COMMANDS = {
  createReceiver: (
    p: CommandPlatform,
    a: { tenantId: string; url: string; secret: string; events: EventType[] | null },
  ) => createReceiver(p.tenant(a.tenantId), a, p.now()),

  deleteReceiver: (p: CommandPlatform, a: { tenantId: string; receiverId: string }) =>
    deleteReceiver(p.tenant(a.tenantId), a.receiverId),

  redeliverWebhookDelivery: (p: CommandPlatform, a: { tenantId: string; deliveryId: string }) =>
    redeliver(p.tenant(a.tenantId), a.deliveryId),

  recordDeliveryAttempt: (
    p: CommandPlatform,
    a: {
      tenantId: string;
      deliveryId: string;
      attempt: WebhookDelivery['attempts'][number];
      state: WebhookDelivery['state'];
      nextAttemptAt: string | null;
    },
  ) => recordAttempt(p.tenant(a.tenantId), a.deliveryId, a.attempt, a.state, a.nextAttemptAt),
};
