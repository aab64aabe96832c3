// Webhook delivery (docs/adr-0002; docs/mock.md, Webhooks). The platform queues a delivery for each receiver that
// wants an event (domain/webhooks.ts); this sends them: a POST of the envelope of seed 001, signed
// with HMAC-SHA256 of the raw body and carrying an event id for de-duplication (seed 001: "Events may
// be duplicated"). A failed attempt is retried with exponential backoff; every attempt is a
// logged command, so pending deliveries resume after a restart — at least once.
//
// A redirect is not followed: the signed body would go, with its signature, to whatever host the
// receiver names, and a receiver URL is checked when it is registered, not where it points later.
// The 3xx is recorded as a failed attempt and retried like any other non-2xx answer, since a
// receiver that is being moved may answer properly again (docs/mock.md, Webhooks).
//
// Per receiver at most MAX_IN_FLIGHT requests are open at a time, oldest delivery first, so a
// receiver that accepts and never answers holds a few sockets, not one per event, and pending
// deliveries resume after a restart a few at a time.
import { createHmac } from 'node:crypto';
import { envelope } from '../domain/events.ts';
import type { PlatformEvent, WebhookDelivery } from '../domain/model.ts';
import type { Platform } from '../domain/platform.ts';
import type { TenantState } from '../domain/tenant-state.ts';

/** Requests open at once per receiver. */
export const MAX_IN_FLIGHT = 4;

/**
 * Who sends which attempt when several replicas share one platform (a shared store, docs/mock.md,
 * Shared sandbox): every replica sees every pending delivery, and only the one that claims an attempt
 * sends it. A claim lapses after its lease, so a replica that dies mid-attempt leaves the attempt to
 * another; a claim whose attempt was recorded never lapses.
 */
export interface DeliveryClaims {
  /** Whether this replica may send attempt `attempt` of `delivery` (tenant/id) now, for `leaseMs`. */
  claim(delivery: string, attempt: number, leaseMs: number): Promise<boolean>;
  /** The attempt is recorded: nobody sends it again. */
  recorded(delivery: string, attempt: number): Promise<void>;
  /** Forgets every claim: after a reset the ids of deliveries start again. */
  clear(): Promise<void>;
}

export interface DispatcherOptions {
  maxAttempts?: number;
  /** Delay before the second attempt; it doubles for each one after. */
  baseDelayMs?: number;
  timeoutMs?: number;
  /** Wait before trying again when the state file could not record an attempt. */
  recordRetryMs?: number;
  /** With a shared store: the claims that let one replica send each attempt. */
  claims?: DeliveryClaims;
}

export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The longest part of a redirect's Location kept in the delivery log. */
const LOCATION_SHOWN = 200;

/** Why a non-2xx answer failed, as the delivery log says it. */
function failure(response: Response): string {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || location === null) return `HTTP ${response.status}`;
  const shown = location.length > LOCATION_SHOWN ? `${location.slice(0, LOCATION_SHOWN)}…` : location;
  return `HTTP ${response.status}: a redirect (to ${shown}), not followed`;
}

export class WebhookDispatcher {
  /** Deliveries with a request open, by `tenant/delivery`, and the count per `tenant/receiver`. */
  private readonly inFlight = new Set<string>();
  private readonly openPerReceiver = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  /** Deliveries whose attempt could not be recorded: not tried again before this time. */
  private readonly heldUntil = new Map<string, number>();
  private readonly stopped = new AbortController();
  private unsubscribe: (() => void)[] = [];
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly timeoutMs: number;
  private readonly recordRetryMs: number;
  private readonly claims: DeliveryClaims | undefined;

  constructor(
    private readonly platform: Platform,
    options: DispatcherOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 6;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.recordRetryMs = options.recordRetryMs ?? 10_000;
    this.claims = options.claims;
  }

  start(): void {
    // New deliveries come from commands (an event's, or a redelivery); a reset or an imported snapshot
    // may bring pending ones, as does the state file at start.
    this.unsubscribe = [
      this.platform.onDeliveriesQueued(() => this.pump()),
      this.platform.onLoad(() => {
        const { claims } = this;
        if (claims) this.platform.alongside(() => claims.clear());
        this.pump();
      }),
    ];
    this.pump();
  }

  stop(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopped.abort();
  }

  /** Starts every due delivery a receiver has room for, oldest first; wakes up for the next one due. */
  private pump(): void {
    if (this.stopped.signal.aborted) return;
    const now = Date.now();
    let nextDue = Number.POSITIVE_INFINITY;
    for (const tenant of this.platform.tenants.values()) {
      for (const delivery of tenant.deliveries.values()) {
        const key = `${tenant.id}/${delivery.id}`;
        if (delivery.state !== 'pending' || this.inFlight.has(key)) continue;
        const due = Math.max(
          delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) : 0,
          this.heldUntil.get(key) ?? 0,
        );
        if (due > now) {
          nextDue = Math.min(nextDue, due);
          continue;
        }
        const receiverKey = `${tenant.id}/${delivery.receiverId}`;
        const open = this.openPerReceiver.get(receiverKey) ?? 0;
        if (open >= MAX_IN_FLIGHT) continue;
        this.openPerReceiver.set(receiverKey, open + 1);
        this.inFlight.add(key);
        void this.attempt(tenant, delivery).finally(() => {
          this.inFlight.delete(key);
          this.openPerReceiver.set(receiverKey, (this.openPerReceiver.get(receiverKey) ?? 1) - 1);
          this.pump();
        });
      }
    }
    for (const [key, until] of this.heldUntil) if (until <= now) this.heldUntil.delete(key);
    this.wakeAt(nextDue);
  }

  private wakeAt(at: number): void {
    if (at === Number.POSITIVE_INFINITY || (this.timer && at >= this.timerAt)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(0, at - Date.now()),
    );
  }

  private async attempt(tenant: TenantState, delivery: WebhookDelivery): Promise<void> {
    const key = `${tenant.id}/${delivery.id}`;
    const number = delivery.attempts.length + 1;
    if (this.claims) {
      // Another replica sends it, or the store is out of reach: looked at again once a claim of a
      // replica that died would have lapsed.
      const lease = this.timeoutMs + this.recordRetryMs;
      const mine = await this.claims.claim(key, number, lease).catch(() => false);
      if (!mine) {
        this.heldUntil.set(key, Date.now() + lease);
        return;
      }
    }
    const receiver = tenant.receivers.get(delivery.receiverId);
    const event = tenant.eventById(delivery.eventId);
    const { status, error } =
      receiver && event
        ? await this.post(receiver.url, receiver.secret, event)
        : { status: null, error: 'the receiver or the event no longer exists' };
    this.record(tenant, delivery, status, error, status !== null && status >= 200 && status < 300);
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
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.stopped.signal]),
      });
      await response.body?.cancel();
      return { status: response.status, error: response.ok ? null : failure(response) };
    } catch (error) {
      return { status: null, error: (error as Error).message };
    }
  }

  private record(
    tenant: TenantState,
    delivery: WebhookDelivery,
    status: number | null,
    error: string | null,
    ok: boolean,
  ): void {
    // A reset or snapshot import may have replaced the state while the attempt was in flight, or
    // the receiver was deleted: the attempt belongs to this very record, not to one reusing its id.
    if (
      this.stopped.signal.aborted ||
      this.platform.tenants.get(tenant.id)?.deliveries.get(delivery.id) !== delivery
    )
      return;
    const attempts = delivery.attempts.length + 1;
    const retry = !ok && attempts < this.maxAttempts;
    const delayMs = this.baseDelayMs * 2 ** (attempts - 1);
    const key = `${tenant.id}/${delivery.id}`;
    // The state file or the shared store could not keep the attempt (a full disk, the store out of
    // reach): the delivery stays pending and is tried again later — at least once, as promised.
    const recorded = () => {
      this.heldUntil.delete(key);
      this.claims?.recorded(key, attempts).catch(() => {});
    };
    const later = () => this.heldUntil.set(key, Date.now() + this.recordRetryMs);
    try {
      // In a shared store, in its turn among every replica's writes (Platform.exclusive).
      const done = this.platform.exclusive(() =>
        this.platform.run('recordDeliveryAttempt', {
          tenantId: tenant.id,
          deliveryId: delivery.id,
          attempt: { at: new Date().toISOString(), status, error },
          state: ok ? 'delivered' : retry ? 'pending' : 'failed',
          nextAttemptAt: retry ? new Date(Date.now() + delayMs).toISOString() : null,
        }),
      );
      if (done instanceof Promise) done.then(recorded, later);
      else recorded();
    } catch {
      later();
    }
  }
}
