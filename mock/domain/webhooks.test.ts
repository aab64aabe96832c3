// Webhook deliveries as state (docs/mock.md, Webhooks): made with the event they carry, bounded per
// receiver — the oldest pending one dropped past the queue, the oldest finished ones forgotten.
import { describe, expect, it } from 'vitest';
import { emit } from './events.ts';
import type { EventType } from './model.ts';
import { TenantState } from './tenant-state.ts';
import {
  createReceiver,
  deleteReceiver,
  KEPT_FINISHED_DELIVERIES,
  MAX_PENDING_DELIVERIES,
  recordAttempt,
} from './webhooks.ts';

const START = 1_767_225_600;

function tenantWithReceiver(events: EventType[] | null = null) {
  const t = TenantState.empty('t', 'T', 'key');
  const receiver = createReceiver(t, { url: 'http://127.0.0.1:9/hook', secret: 's', events }, START);
  return { t, receiver };
}

const ofState = (t: TenantState, state: string) =>
  [...t.deliveries.values()].filter((d) => d.state === state);

describe('deliveries', () => {
  it('are queued by the emission of their event, one per receiver that wants it', () => {
    const { t, receiver } = tenantWithReceiver(['user.created']);
    const event = emit(t, 'user.created', {}, START);
    emit(t, 'course.published', {}, START);
    expect([...t.deliveries.values()]).toEqual([
      expect.objectContaining({ receiverId: receiver.id, eventId: event.id, state: 'pending', attempts: [] }),
    ]);
  });

  it(`drop the oldest pending one past ${MAX_PENDING_DELIVERIES} per receiver, and say so`, () => {
    const { t } = tenantWithReceiver();
    for (let i = 0; i < MAX_PENDING_DELIVERIES + 5; i++) emit(t, 'user.created', { i }, START);
    expect(ofState(t, 'pending')).toHaveLength(MAX_PENDING_DELIVERIES);
    const dropped = ofState(t, 'dropped');
    expect(dropped.map((d) => d.eventId)).toEqual([1, 2, 3, 4, 5]);
    expect(dropped.every((d) => d.nextAttemptAt === null)).toBe(true);
  });

  it(`keep the last ${KEPT_FINISHED_DELIVERIES} finished ones per receiver and forget older ones`, () => {
    const { t } = tenantWithReceiver();
    const attempt = { at: '2026-01-01T00:00:00.000Z', status: 200, error: null };
    for (let i = 0; i < KEPT_FINISHED_DELIVERIES + 20; i++) {
      emit(t, 'user.created', { i }, START);
      recordAttempt(t, `dlv_${i + 1}`, attempt, 'delivered', null);
    }
    const kept = ofState(t, 'delivered');
    expect(kept).toHaveLength(KEPT_FINISHED_DELIVERIES);
    expect(kept[0]?.id).toBe('dlv_21');
  });

  it('stay dropped when an attempt that was on its way comes back', () => {
    const { t } = tenantWithReceiver();
    for (let i = 0; i <= MAX_PENDING_DELIVERIES; i++) emit(t, 'user.created', { i }, START);
    const first = recordAttempt(t, 'dlv_1', { at: 'x', status: 200, error: null }, 'delivered', null);
    expect(first).toMatchObject({ state: 'dropped', attempts: [] });
  });

  it('go with their receiver when it is deleted', () => {
    const { t, receiver } = tenantWithReceiver();
    emit(t, 'user.created', {}, START);
    deleteReceiver(t, receiver.id);
    expect(t.deliveries.size).toBe(0);
  });
});
