// Webhook events (seed 001, "Events" and "Webhook last event"): the slash form of the type, the
// envelope, the bodies, and GET /webhook/{event}/last, which only looks 30 days back.
import { describe, expect, it } from 'vitest';
import { loadSeed } from '../seed/index.ts';
import { upsertAttributes } from './attributes.ts';
import { SITE_KEY } from './audit.ts';
import { DAY, VirtualClock } from './clock.ts';
import {
  EVENT_LOG_SIZE,
  EVENT_RETENTION,
  emit,
  envelope,
  lastEvent,
  slashType,
  webhookUser,
} from './events.ts';
import { Platform } from './platform.ts';
import { TenantState } from './tenant-state.ts';
import { createUser } from './users.ts';
import { createReceiver, recordAttempt } from './webhooks.ts';

const START = 1_767_225_600;

describe('slashType', () => {
  it.each([
    ['group.user.created', 'Group/User/Created'],
    ['user.created', 'User/Created'],
    ['course.finished', 'Course/Finished'],
    ['course.published', 'Course/Published'],
  ])('%s → %s (seed 001, Events: type in slash form)', (dot, slash) => {
    expect(slashType(dot)).toBe(slash);
  });
});

describe('envelope', () => {
  it('carries occuredAt (as the seed spells it), the slash type and the body (seed 001, Webhook event envelope)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    const event = emit(t, 'group.user.created', { user: { id: 'u1' } }, START);
    expect(envelope(event)).toEqual({
      occuredAt: START,
      type: 'Group/User/Created',
      body: { user: { id: 'u1' } },
    });
  });
});

describe('lastEvent', () => {
  it('answers the most recent event of the type (seed 001, GET /webhook/{event}/last)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    emit(t, 'user.created', { n: 1 }, START);
    emit(t, 'course.finished', { n: 2 }, START + 10);
    emit(t, 'user.created', { n: 3 }, START + 20);
    expect(lastEvent(t, 'user.created', START + 30)?.body).toEqual({ n: 3 });
    expect(lastEvent(t, 'course.finished', START + 30)?.body).toEqual({ n: 2 });
  });

  it.each([
    ['an unknown type', 'user.deleted'],
    ['the type in another case', 'User.Created'],
    ['the slash form', 'User/Created'],
  ])(
    'answers nothing for %s: the type is case-sensitive dot notation (seed 001, GET /webhook/{event}/last)',
    (_, type) => {
      const t = TenantState.empty('t', 'T', 'key');
      emit(t, 'user.created', {}, START);
      expect(lastEvent(t, type, START)).toBeUndefined();
    },
  );

  it.each<[string, number, boolean]>([
    ['just now', 0, true],
    ['29 days ago', 29 * DAY, true],
    ['exactly 30 days ago', 30 * DAY, true],
    ['30 days and a second ago', 30 * DAY + 1, false],
    ['31 days ago', 31 * DAY, false],
  ])(
    'an event from %s is returned: %s (seed 001, Webhook last event: only events of the last 30 days)',
    (_, age, returned) => {
      const t = TenantState.empty('t', 'T', 'key');
      emit(t, 'user.created', {}, START);
      expect(lastEvent(t, 'user.created', START + age) !== undefined).toBe(returned);
    },
  );

  it('honours 30 days of virtual time on the demo platform: an event 31 days old is gone, a newer one is found (seed 001, Limits: last-event retention 30 days)', () => {
    const seed = loadSeed('demo');
    const clock = new VirtualClock({ start: seed.now, frozen: true });
    const platform = new Platform(clock, loadSeed);
    platform.load(seed);
    const t = platform.tenant('demo');
    const seeded = lastEvent(t, 'user.created', clock.now());
    expect(seeded).toBeDefined();
    // Move the clock until the seeded event is 31 days old.
    clock.set((seeded?.occuredAt ?? 0) + 31 * DAY);
    expect(lastEvent(t, 'user.created', clock.now())).toBeUndefined();
    platform.run('createUser', {
      tenantId: 'demo',
      input: {
        id: 'nora',
        name: 'Nora',
        email: 'nora@demo.example',
        password: 'password1',
        roleAlias: 'learner',
      },
    });
    expect(lastEvent(t, 'user.created', clock.now())).toMatchObject({
      occuredAt: clock.now(),
      body: { user: { id: 'nora' } },
    });
    clock.advance(EVENT_RETENTION + 1);
    expect(lastEvent(t, 'user.created', clock.now())).toBeUndefined();
  });
});

describe('event bodies', () => {
  it('user.created carries the user with role {alias}, fromApi and userAttributes [{apiId, name, type, value}] (seed 001, Events: User/Created)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    upsertAttributes(t, 'user', [
      { name: 'Works remotely', apiId: 'remote', type: 6, position: 1, isRequired: false, isVisible: true },
      { name: 'Badge', apiId: 'badge', type: 1, position: 2, isRequired: false, isVisible: true },
    ]);
    createUser(
      t,
      SITE_KEY,
      {
        id: 'nora',
        name: 'Nora',
        email: 'nora@x.example',
        password: 'password1',
        roleAlias: 'author',
        timezone: 'Europe/Lisbon',
        attributes: { remote: true },
      },
      START,
    );
    const event = lastEvent(t, 'user.created', START);
    expect(event?.body).toEqual({
      user: {
        id: 'nora',
        name: 'Nora',
        email: 'nora@x.example',
        language: 'en',
        timezone: 'Europe/Lisbon',
        role: { alias: 'author' },
        fromApi: true,
        userAttributes: [{ apiId: 'remote', name: 'Works remotely', type: 6, value: true }],
      },
    });
  });

  it('webhookUser never exposes the password hash (seed 001, Events: user fields)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    const u = createUser(
      t,
      SITE_KEY,
      { name: 'Nora', email: 'nora@x.example', password: 'password1', roleAlias: 'learner' },
      START,
    );
    expect(JSON.stringify(webhookUser(t, u))).not.toContain(u.passwordHash);
  });
});

describe('the event log’s bound (docs/adr-0002: the event log)', () => {
  /** `count` user.created events, a second apart from `from`. */
  const emitUsers = (t: TenantState, count: number, from: number) => {
    for (let i = 0; i < count; i++) emit(t, 'user.created', { n: i }, from + i);
  };

  it('keeps a tenant’s newest events and drops the oldest, so writes do not grow the log for good', () => {
    const t = TenantState.empty('t', 'T', 'key');
    emitUsers(t, 3 * EVENT_LOG_SIZE, START);
    expect(t.events.length).toBeLessThanOrEqual(EVENT_LOG_SIZE);
    expect(t.events.length).toBeGreaterThan(EVENT_LOG_SIZE / 2);
    expect(t.events.at(-1)?.id).toBe(3 * EVENT_LOG_SIZE);
    expect(t.eventById(1)).toBeUndefined();
    // Still in id order, so eventById's bisection finds every kept one.
    const ids = t.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(t.eventById(ids[0] as number)?.id).toBe(ids[0]);
  });

  it('keeps the newest event of each type, so GET /webhook/{event}/last answers the same after a restart (seed 001, Webhook last event)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    const published = emit(t, 'course.published', { course: 1 }, START);
    emitUsers(t, EVENT_LOG_SIZE + 1, START + 1);
    expect(t.eventById(published.id)).toBe(published);
    const restarted = new TenantState(structuredClone(t.toData()));
    expect(lastEvent(restarted, 'course.published', START + 10)).toEqual(published);
  });

  it('keeps an event a pending delivery has still to send, and lets it go once the delivery is done', () => {
    const t = TenantState.empty('t', 'T', 'key');
    createReceiver(t, { url: 'http://127.0.0.1:9/hook', secret: 's', events: ['group.user.created'] }, START);
    const first = emit(t, 'group.user.created', { n: 'first' }, START);
    emit(t, 'group.user.created', { n: 'second' }, START + 1);
    emitUsers(t, EVENT_LOG_SIZE + 1, START + 2);
    expect(t.eventById(first.id)).toBe(first);

    const delivery = [...t.deliveries.values()].find((d) => d.eventId === first.id);
    recordAttempt(t, delivery?.id as string, { at: 'now', status: 204, error: null }, 'delivered', null);
    emitUsers(t, EVENT_LOG_SIZE, START + EVENT_LOG_SIZE + 10);
    expect(t.eventById(first.id)).toBeUndefined();
  });
});
