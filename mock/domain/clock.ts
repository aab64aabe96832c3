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

  /** Now, in whole Unix seconds of virtual time. */
  now(): number {
    if (this.frozen) return this.base;
    return this.base + Math.floor((this.wallMs() - this.wallAtBase) / 1000);
  }

  set(seconds: number): void {
    this.base = seconds;
    this.wallAtBase = this.wallMs();
  }

  advance(seconds: number): void {
    this.set(this.now() + seconds);
  }
}

export const DAY = 86_400;

/** UTC day number of a Unix time: the unit of daily quotas. */
export const utcDay = (seconds: number) => Math.floor(seconds / DAY);

export const toIso = (seconds: number) => {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? 'out of range' : date.toISOString().replace('.000Z', 'Z');
};
