// The virtual clock's bound (openapi/admin ClockTime): the maximum the contract states is the one the
// clock keeps, every date printed from it keeps a four-digit year, and a running clock stops there.
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../specs.ts';
import { CLOCK_MAX, clockTimeProblem, DAY, isCalendarDay, toIso, utcDay, VirtualClock } from './clock.ts';

const admin = loadSpecs().admin as any;

describe('the clock maximum (openapi/admin ClockTime: "The clock stops there")', () => {
  it('is the maximum the admin contract states, on every schema that holds a clock time', () => {
    expect(admin.components.schemas.ClockTime).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: CLOCK_MAX,
    });
    const ref = { $ref: '#/components/schemas/ClockTime' };
    expect(admin.components.schemas.SetClockRequest.properties.now).toMatchObject(ref);
    expect(admin.components.schemas.StateSnapshot.properties.now).toMatchObject(ref);
    expect(admin.components.schemas.Clock.properties.now).toMatchObject(ref);
  });

  it('keeps every date printed from the clock a four-digit-year ISO date, the next midnight a quota resets at included', () => {
    const fourDigits = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
    expect(toIso(CLOCK_MAX)).toBe('9999-12-30T23:59:59Z');
    expect(toIso((utcDay(CLOCK_MAX) + 1) * DAY)).toMatch(fourDigits);
    expect(toIso(CLOCK_MAX + DAY)).toMatch(fourDigits);
  });

  it('names a time past the maximum, a negative one and a fraction as no clock time', () => {
    expect(clockTimeProblem(CLOCK_MAX)).toBeNull();
    expect(clockTimeProblem(0)).toBeNull();
    for (const t of [CLOCK_MAX + 1, -1, 1.5, Number.NaN])
      expect(clockTimeProblem(t)).toContain('9999-12-30T23:59:59Z');
  });

  it('a running clock stops at the maximum instead of passing it', () => {
    let wall = 0;
    const clock = new VirtualClock({ start: CLOCK_MAX - 5, wallMs: () => wall });
    wall = 3_000;
    expect(clock.now()).toBe(CLOCK_MAX - 2);
    wall = 60_000;
    expect(clock.now()).toBe(CLOCK_MAX);
  });

  it('set refuses a time past the maximum and stays where it was', () => {
    const clock = new VirtualClock({ start: 1_767_225_600, frozen: true });
    expect(() => clock.set(CLOCK_MAX + 1)).toThrow(RangeError);
    expect(() => clock.advance(CLOCK_MAX)).toThrow(RangeError);
    expect(clock.now()).toBe(1_767_225_600);
  });
});

describe('isCalendarDay (seed 000, get_audit_log: an ISO date; seed 001, Type rules: date in ISO format)', () => {
  it.each([
    [2026, 2, 28, true],
    [2024, 2, 29, true],
    [2026, 2, 29, false],
    [2026, 2, 30, false],
    [2026, 4, 31, false],
    [2026, 12, 31, true],
    [2026, 13, 1, false],
    [2026, 0, 10, false],
  ])('%i-%i-%i: %s', (y, m, d, real) => {
    expect(isCalendarDay(y, m, d)).toBe(real);
  });
});
