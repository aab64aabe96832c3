// Step 2 (seed 000, Errors: 429 MCP_AUTH_RATE_LIMITED "too many failed attempts, retry after <N>s"):
// failed authentications are counted per client IP in a sliding window (docs/adr-0002: 20 per 5 minutes);
// past the threshold every request from that IP is refused until the window has room again.
// Memory stays bounded (docs/mock.md, Bounds): an IP's entry is dropped once its window is empty, and
// when many IPs have entries, the expired ones are swept on the next failure (an IP that failed once
// and never came back would otherwise stay forever). Past that the table holds at most MAX_CLIENTS
// addresses, each of at most MAX_ADDRESS characters with its last `max` failures (what deciding needs),
// so at most about 4 MB whatever clients send: when it is full, the address that failed longest ago
// makes room. A client can name any address through a trusted proxy, so the bound is what keeps a
// client that names a new one each time from growing the table.
import type { FailedLoginLimiter } from './counters.ts';
import type { Failure } from './failure.ts';

/** The most client addresses whose failures are kept. */
export const MAX_CLIENTS = 10_000;
/** The longest address kept as it is (IPv6 text is at most 45 characters); longer ones are cut. */
export const MAX_ADDRESS = 64;

/** docs/adr-0002: 20 failed logins per client in 5 minutes. */
export const DEFAULT_FAILED_AUTH_MAX = 20;
export const DEFAULT_FAILED_AUTH_WINDOW_SECONDS = 300;

export class FailedAuthLimiter implements FailedLoginLimiter {
  /** Failure times by address, least recently failed first. */
  private readonly failures = new Map<string, number[]>();
  /** Entries past which a failure sweeps the expired ones first. */
  private sweepAt = 1024;

  constructor(
    readonly max = DEFAULT_FAILED_AUTH_MAX,
    readonly windowSeconds = DEFAULT_FAILED_AUTH_WINDOW_SECONDS,
    private readonly nowMs: () => number = Date.now,
  ) {}

  private recent(ip: string): number[] {
    const since = this.nowMs() - this.windowSeconds * 1000;
    const kept = (this.failures.get(ip) ?? []).filter((t) => t > since);
    if (kept.length) this.failures.set(ip, kept);
    else this.failures.delete(ip);
    return kept;
  }

  check(address: string): Failure | null {
    const ip = address.slice(0, MAX_ADDRESS);
    if (!this.failures.has(ip)) return null;
    const recent = this.recent(ip);
    if (recent.length < this.max) return null;
    return tooManyFailures((recent[0] ?? 0) + this.windowSeconds * 1000 - this.nowMs());
  }

  fail(address: string): void {
    const ip = address.slice(0, MAX_ADDRESS);
    if (this.failures.size >= this.sweepAt) {
      for (const other of [...this.failures.keys()]) this.recent(other);
      // Sweep again only after as many new IPs as remain: amortised constant work per failure.
      this.sweepAt = Math.max(1024, 2 * this.failures.size);
    }
    // The last `max` failures decide whether the next request is refused and for how long.
    const times = [...this.recent(ip), this.nowMs()].slice(-this.max);
    // Set anew, so the map's order stays least recently failed first.
    this.failures.delete(ip);
    while (this.failures.size >= MAX_CLIENTS)
      this.failures.delete(this.failures.keys().next().value as string);
    this.failures.set(ip, times);
  }

  clear(): void {
    this.failures.clear();
  }

  /** IPs with failures kept, for the memory guard. */
  get trackedIps(): number {
    return this.failures.size;
  }

  get watching(): boolean {
    return this.failures.size > 0;
  }
}

/** The refusal of a client whose oldest failure in the window leaves it in `msLeft`. */
export function tooManyFailures(msLeft: number): Failure {
  const retryAfter = Math.max(1, Math.ceil(msLeft / 1000));
  return {
    status: 429,
    code: 'MCP_AUTH_RATE_LIMITED',
    message: `Too many failed attempts, retry after ${retryAfter}s.`,
    retryAfter,
  };
}
