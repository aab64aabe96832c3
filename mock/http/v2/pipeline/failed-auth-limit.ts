// Step 2 (seed 000, Errors: 429 MCP_AUTH_RATE_LIMITED "too many failed attempts, retry after <N>s"):
// failed authentications are counted per client IP in a sliding window (docs/adr-0002: 20 per 5 minutes);
// past the threshold every request from that IP is refused until the window has room again.
// Memory stays bounded: an IP's entry is dropped once its window is empty, and when many IPs have
// entries, the expired ones are swept on the next failure (an IP that failed once and never came
// back would otherwise stay forever).
import type { Failure } from './failure.ts';

export class FailedAuthLimiter {
  private readonly failures = new Map<string, number[]>();
  /** Entries past which a failure sweeps the expired ones first. */
  private sweepAt = 1024;

  constructor(
    readonly max = 20,
    readonly windowSeconds = 300,
    private readonly nowMs: () => number = Date.now,
  ) {}

  private recent(ip: string): number[] {
    const since = this.nowMs() - this.windowSeconds * 1000;
    const kept = (this.failures.get(ip) ?? []).filter((t) => t > since);
    if (kept.length) this.failures.set(ip, kept);
    else this.failures.delete(ip);
    return kept;
  }

  check(ip: string): Failure | null {
    if (!this.failures.has(ip)) return null;
    const recent = this.recent(ip);
    if (recent.length < this.max) return null;
    const retryAfter = Math.max(
      1,
      Math.ceil(((recent[0] ?? 0) + this.windowSeconds * 1000 - this.nowMs()) / 1000),
    );
    return {
      status: 429,
      code: 'MCP_AUTH_RATE_LIMITED',
      message: `Too many failed attempts, retry after ${retryAfter}s.`,
      retryAfter,
    };
  }

  fail(ip: string): void {
    if (this.failures.size >= this.sweepAt) {
      for (const other of [...this.failures.keys()]) this.recent(other);
      // Sweep again only after as many new IPs as remain: amortised constant work per failure.
      this.sweepAt = Math.max(1024, 2 * this.failures.size);
    }
    this.failures.set(ip, [...this.recent(ip), this.nowMs()]);
  }

  clear(): void {
    this.failures.clear();
  }

  /** IPs with failures kept, for the memory guard. */
  get trackedIps(): number {
    return this.failures.size;
  }
}
