// The virtual clock (docs/adr-0002: deterministic): every timestamp of the platform is Unix seconds of
// this clock. It moves with wall-clock time unless frozen, and jumps when advanced or set, so a test
// can pass a deadline or finish a generation job without waiting.

export interface ClockOptions {
  /** Virtual time at start, Unix seconds. */
  start: number;
  /** When true the clock moves only when advanced or set (tests); otherwise it follows wall time. */
  frozen?: boolean;
  /** Wall-clock source in milliseconds, replaceable in tests. */
  wallMs?: () => number;
}

/**
 * The clock's maximum, Unix seconds: 9999-12-30T23:59:59Z, the `maximum` of the admin contract's
 * `ClockTime` (a test holds the two equal). A day short of the end of year 9999, so every date the
 * mock prints from the clock, the next UTC midnight a daily quota resets at included, keeps a
 * four-digit year, and a snapshot taken at the maximum is one `importSnapshot` accepts.
 */
export const CLOCK_MAX = 253_402_214_399;

/** Why `seconds` cannot be a time of the clock, or null. */
export const clockTimeProblem = (seconds: number): string | null =>
  Number.isSafeInteger(seconds) && seconds >= 0 && seconds <= CLOCK_MAX
    ? null
    : `must be a time of the clock from 0 to its maximum ${CLOCK_MAX} (${toIso(CLOCK_MAX)})`;

export class VirtualClock {
  private base: number;
  private wallAtBase: number;
  readonly frozen: boolean;
  private readonly wallMs: () => number;

  constructor(options: ClockOptions) {
    this.wallMs = options.wallMs ?? Date.now;
    this.frozen = options.frozen ?? false;
    this.base = options.start;
    this.wallAtBase = this.wallMs();
  }

  /** Now, in whole Unix seconds of virtual time; a running clock stops at its maximum. */
  now(): number {
    if (this.frozen) return this.base;
    return Math.min(this.base + Math.floor((this.wallMs() - this.wallAtBase) / 1000), CLOCK_MAX);
  }

  /** Moves the clock to `seconds`; callers check the time first (`clockTimeProblem`), this only guards. */
  set(seconds: number): void {
    const problem = clockTimeProblem(seconds);
    if (problem) throw new RangeError(`virtual time ${seconds} ${problem}`);
    this.base = seconds;
    this.wallAtBase = this.wallMs();
  }

  advance(seconds: number): void {
    this.set(this.now() + seconds);
  }

  /**
   * What the clock is: its time and the wall-clock moment it had it. Replicas of a shared store
   * (../store/postgres-store.ts) take the writer's, so every replica's `now()` is the same.
   */
  state(): ClockState {
    return { base: this.base, wall: this.wallAtBase };
  }

  restore(state: ClockState): void {
    this.base = state.base;
    this.wallAtBase = state.wall;
  }
}

export interface ClockState {
  /** Virtual time, Unix seconds. */
  base: number;
  /** The wall-clock time, in milliseconds, at which the clock was at `base`. */
  wall: number;
}

export const DAY = 86_400;

/** UTC day number of a Unix time: the unit of daily quotas. */
export const utcDay = (seconds: number) => Math.floor(seconds / DAY);

/** Whether year-month-day is a day of the calendar: `Date` alone takes 2026-02-30 as March 2nd. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const toIso = (seconds: number) => {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? 'out of range' : date.toISOString().replace('.000Z', 'Z');
};
