// One webhook delivery with the request its attempts send (admin API, getWebhookDelivery): the body and
// signature are computed as the dispatcher computes them, from the event's envelope and the receiver's
// secret, so what the console shows is byte for byte what the receiver gets. And sending a delivery's
// event again (redeliverWebhookDelivery): a logged command that queues a new delivery, which the
// dispatcher hears of through the platform and sends at once.
import type { PathOperations } from '../../../generated/admin.ts';
import { envelope } from '../../domain/events.ts';
import type { Platform } from '../../domain/platform.ts';
import { signature } from '../../webhooks/dispatcher.ts';
import { errorAnswer } from '../error-body.ts';
import { type Handlers, ok } from '../typed-handlers.ts';

export function deliveryHandlers(
  platform: Platform,
): Pick<Handlers<PathOperations>, 'getWebhookDelivery' | 'redeliverWebhookDelivery'> {
  return {
    redeliverWebhookDelivery: (_req, _res, input) => {
      const delivery = platform.run('redeliverWebhookDelivery', {
        tenantId: input.params.tenantId,
        deliveryId: input.params.deliveryId,
      });
      return { status: 202 as const, body: { ...delivery, eventId: `evt_${delivery.eventId}` } };
    },

    getWebhookDelivery: (_req, _res, input) => {
      const t = platform.tenant(input.params.tenantId);
      const delivery = t.deliveries.get(input.params.deliveryId);
      const receiver = delivery && t.receivers.get(delivery.receiverId);
      const event = delivery && t.eventById(delivery.eventId);
      if (!delivery || !receiver || !event)
        return errorAnswer({
          status: 404,
          code: 'NOT_FOUND',
          message: delivery
            ? `The event of delivery ${delivery.id} is no longer kept.`
            : `Delivery ${input.params.deliveryId} not found.`,
        });
      const body = JSON.stringify(envelope(event));
      return ok({
        delivery: { ...delivery, eventId: `evt_${delivery.eventId}` },
        request: {
          url: receiver.url,
          headers: {
            'content-type': 'application/json',
            'x-lmskit-event-id': `evt_${event.id}`,
            'x-lmskit-event': event.type,
            'x-lmskit-signature': signature(receiver.secret, body),
          },
          body,
        },
      });
    },
  };
}
