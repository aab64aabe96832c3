// Webhook delivery (docs/adr-0002; docs/mock.md, Webhooks). Each recorded event is POSTed to each
// receiver that wants it, as the envelope of seed 001, signed with HMAC-SHA256 of the raw body and
// carrying an event id for de-duplication (seed 001: "Events may be duplicated"). A failed attempt is
// retried with exponential backoff; every attempt is a journalled command, so pending deliveries
// resume after a restart — at least once.
import { createHmac } from 'node:crypto';
import { envelope } from '../domain/events.ts';
import type { PlatformEvent, WebhookDelivery } from '../domain/model.ts';
import type { Platform } from '../domain/platform.ts';

export interface DispatcherOptions {
  maxAttempts?: number;
  /** Delay before the second attempt; it doubles for each one after. */
  baseDelayMs?: number;
  timeoutMs?: number;
}

export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export class WebhookDispatcher {
  private readonly timers = new Set<NodeJS.Timeout>();
  private unsubscribe: (() => void) | null = null;
  private unsubscribeLoad: (() => void) | null = null;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly platform: Platform,
    options: DispatcherOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 6;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  start(): void {
    this.unsubscribe = this.platform.onEvents((tenant, events) => {
      for (const event of events) {
        if (tenant.receivers.size === 0) continue;
        for (const d of this.platform.run('createDeliveries', { tenantId: tenant.id, eventId: event.id }))
          this.schedule(tenant.id, d.id, 0);
      }
    });
    // Deliveries a previous run — or a reset or imported snapshot — left pending.
    this.resumePending();
    this.unsubscribeLoad = this.platform.onLoad(() => this.resumePending());
  }

  private resumePending(): void {
    for (const tenant of this.platform.tenants.values()) {
      for (const d of tenant.deliveries.values())
        if (d.state === 'pending') this.schedule(tenant.id, d.id, 0);
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribeLoad?.();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(tenantId: string, deliveryId: string, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(tenantId, deliveryId);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(tenantId: string, deliveryId: string): Promise<void> {
    const tenant = this.platform.tenants.get(tenantId);
    const delivery = tenant?.deliveries.get(deliveryId);
    const receiver = delivery && tenant?.receivers.get(delivery.receiverId);
    const event = delivery && tenant?.events.find((e) => e.id === delivery.eventId);
    if (!tenant || !delivery || delivery.state !== 'pending') return;
    if (!receiver || !event) {
      this.record(tenantId, delivery, null, 'the receiver or the event no longer exists', false);
      return;
    }
    const { status, error } = await this.post(receiver.url, receiver.secret, event);
    this.record(tenantId, delivery, status, error, status !== null && status >= 200 && status < 300);
  }

  private async post(
    url: string,
    secret: string,
    event: PlatformEvent,
  ): Promise<{ status: number | null; error: string | null }> {
    const body = JSON.stringify(envelope(event));
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-lmskit-event-id': `evt_${event.id}`,
          'x-lmskit-event': event.type,
          'x-lmskit-signature': signature(secret, body),
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body?.cancel();
      return { status: response.status, error: response.ok ? null : `HTTP ${response.status}` };
    } catch (error) {
      return { status: null, error: (error as Error).message };
    }
  }

  private record(
    tenantId: string,
    delivery: WebhookDelivery,
    status: number | null,
    error: string | null,
    ok: boolean,
  ): void {
    // A reset or snapshot import may have replaced the state while the attempt was in flight: the
    // attempt belongs to this very record, not to a new one that happens to reuse its id.
    if (this.platform.tenants.get(tenantId)?.deliveries.get(delivery.id) !== delivery) return;
    const attempts = delivery.attempts.length + 1;
    const retry = !ok && attempts < this.maxAttempts;
    const delayMs = this.baseDelayMs * 2 ** (attempts - 1);
    this.platform.run('recordDeliveryAttempt', {
      tenantId,
      deliveryId: delivery.id,
      attempt: { at: new Date().toISOString(), status, error },
      state: ok ? 'delivered' : retry ? 'pending' : 'failed',
      nextAttemptAt: retry ? new Date(Date.now() + delayMs).toISOString() : null,
    });
    if (retry) this.schedule(tenantId, delivery.id, delayMs);
  }
}
