// Webhook events (seed 001, "Events"): every trigger records an event in the tenant's log, from
// which `GET /webhook/{event}/last` answers and deliveries are made.
import { DAY } from './clock.ts';
import type { Course, EventType, Group, PlatformEvent, User } from './model.ts';
import type { TenantState } from './tenant-state.ts';
import { queueDeliveries } from './webhooks.ts';

/** Seed 001: "Only events of the last 30 days are returned." */
export const EVENT_RETENTION = 30 * DAY;

/**
 * How many events a tenant's log keeps, the newest (docs/adr-0002: the event log). The seeds show
 * none; without one, every write of a long-running mock would grow its memory and state file for
 * good, as the audit log's bound says too. Kept past it: the newest event of each type, which
 * `GET /webhook/{event}/last` answers, and every event a pending delivery has still to send. An
 * eighth more than the excess goes at once, so a write does not move the whole log every time.
 */
export const EVENT_LOG_SIZE = 10_000;
const EVENT_TRIM = EVENT_LOG_SIZE / 8;

/** The envelope's `type` is the slash form of the dot-notation name: `group.user.created` → `Group/User/Created`. */
export const slashType = (dotName: string) =>
  dotName
    .split('.')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('/');

export function emit(
  t: TenantState,
  type: EventType,
  body: Record<string, unknown>,
  at: number,
): PlatformEvent {
  const event = { id: t.nextId('event'), type, occuredAt: at, body };
  t.addEvent(event);
  queueDeliveries(t, event);
  if (t.events.length > EVENT_LOG_SIZE) trimEvents(t);
  return event;
}

/** Drops the oldest events past EVENT_LOG_SIZE (and an eighth more) but those still needed; the order stays. */
function trimEvents(t: TenantState): void {
  const { events } = t;
  const drop = events.length - EVENT_LOG_SIZE + EVENT_TRIM;
  const needed = new Set<number>();
  for (const d of t.deliveries.values()) if (d.state === 'pending') needed.add(d.eventId);
  let kept = 0;
  events.forEach((e, i) => {
    if (i >= drop || needed.has(e.id) || t.lastEvent(e.type) === e) events[kept++] = e;
  });
  events.length = kept;
}

export function lastEvent(t: TenantState, type: string, now: number): PlatformEvent | undefined {
  const event = t.lastEvent(type);
  return event && event.occuredAt >= now - EVENT_RETENTION ? event : undefined;
}

export const envelope = (e: PlatformEvent) => ({
  occuredAt: e.occuredAt,
  type: slashType(e.type),
  body: e.body,
});

// Event bodies, as seed 001 lists them.

export function webhookUser(t: TenantState, u: User) {
  const defs = [...t.attributes.values()].filter((d) => d.scope === 'user');
  return {
    id: u.apiId,
    name: u.name,
    email: u.email,
    language: u.language,
    timezone: u.timezone,
    role: { alias: u.role },
    fromApi: u.fromApi,
    userAttributes: defs
      .filter((d) => d.apiId in u.attributes)
      .map((d) => ({ apiId: d.apiId, name: d.name, type: d.type, value: u.attributes[d.apiId] ?? null })),
  };
}

export const shortUser = (u: User) => ({
  id: u.apiId,
  name: u.name,
  email: u.email,
  role: { alias: u.role },
});

export const courseView = (c: Course) => ({
  id: c.id,
  name: c.name,
  annotation: c.annotation,
  isDraft: c.isDraft,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  publishedAt: c.publishedAt,
  image: null,
});

export const userCreated = (t: TenantState, u: User, at: number) =>
  emit(t, 'user.created', { user: webhookUser(t, u) }, at);

export const groupUserCreated = (t: TenantState, u: User, g: Group, at: number) =>
  emit(
    t,
    'group.user.created',
    { user: webhookUser(t, u), group: { id: g.id, name: g.name, description: g.description, image: null } },
    at,
  );

export const courseFinished = (t: TenantState, u: User, c: Course, resultValue: number, at: number) =>
  emit(t, 'course.finished', { user: shortUser(u), course: courseView(c), resultValue }, at);

export const coursePublished = (t: TenantState, c: Course, at: number) =>
  emit(t, 'course.published', { course: courseView(c) }, at);
