// The pipeline's counters in a shared store (docs/mock.md, Shared sandbox): one per-key rate limit and
// one failed-login count per client for every replica, as one process has them (docs/adr-0002). Each
// step is one statement that reads and changes its row at once (INSERT … ON CONFLICT DO UPDATE locks
// the row), so replicas counting together never lose a count. Time is the database's clock, the one
// clock every replica, on any machine, shares.
import type pg from 'pg';
import type { FailedLoginLimiter, LimitCounters, RateLimiter } from '../http/v2/pipeline/counters.ts';
import { MAX_ADDRESS, MAX_CLIENTS, tooManyFailures } from '../http/v2/pipeline/failed-auth-limit.ts';
import type { Failure } from '../http/v2/pipeline/failure.ts';
import { rateLimited } from '../http/v2/pipeline/rate-limit.ts';

/** The database's wall clock, in milliseconds. */
const NOW_MS = 'extract(epoch FROM clock_timestamp()) * 1000';

/** Failures recorded by this replica between two sweeps of the clients whose window is empty. */
const SWEEP_EVERY = 256;

/** Runs a query; a store out of reach becomes the error the caller answers 503 with. */
export type Query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<R[]>;

export function postgresLimitCounters(query: Query): LimitCounters {
  return {
    rateLimiter: (perMinute) => new SharedRateLimiter(query, perMinute),
    failedLogins: (max, windowSeconds) => new SharedFailedLogins(query, max, windowSeconds),
  };
}

class SharedRateLimiter implements RateLimiter {
  constructor(
    private readonly query: Query,
    readonly perMinute: number,
  ) {}

  async take(keyId: string): Promise<Failure | null> {
    if (this.perMinute <= 0) return null;
    // The bucket refilled since its last request, then one token spent if it holds one. A request
    // that waited for another's row lock may carry the earlier time: time never runs back.
    const refilled = `least($2::float8, b.tokens + greatest(0, EXCLUDED.at_ms - b.at_ms) * $2::float8 / 60000)`;
    const [row] = await this.query<{ admitted: boolean; tokens: number }>(
      `INSERT INTO lmskit_rate AS b (key_id, tokens, at_ms, admitted)
       VALUES ($1, $2::float8 - 1, ${NOW_MS}, true)
       ON CONFLICT (key_id) DO UPDATE SET
         tokens = ${refilled} - CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END,
         admitted = ${refilled} >= 1,
         at_ms = greatest(b.at_ms, EXCLUDED.at_ms)
       RETURNING admitted, tokens`,
      [keyId, this.perMinute],
    );
    return !row || row.admitted ? null : rateLimited(this.perMinute, row.tokens);
  }

  async held(keyId: string): Promise<number> {
    if (this.perMinute <= 0) return 0;
    const [row] = await this.query<{ tokens: number }>(
      `SELECT least($2::float8, tokens + greatest(0, ${NOW_MS} - at_ms) * $2::float8 / 60000) AS tokens
       FROM lmskit_rate WHERE key_id = $1`,
      [keyId, this.perMinute],
    );
    return row ? Math.max(0, Math.ceil(this.perMinute - row.tokens - 1e-9)) : 0;
  }

  async reset(keyIds: Iterable<string>): Promise<void> {
    await this.query('DELETE FROM lmskit_rate WHERE key_id = ANY($1::text[])', [[...keyIds]]);
  }

  async clear(): Promise<void> {
    await this.query('DELETE FROM lmskit_rate', []);
  }
}

/**
 * A row per client address with its last `max` failures in the window (what deciding needs). The
 * table stays bounded as the one process's map does (failed-auth-limit.ts): every SWEEP_EVERY failures
 * a replica drops the clients whose window is empty and, past MAX_CLIENTS, those that failed longest ago.
 */
class SharedFailedLogins implements FailedLoginLimiter {
  /** The count is elsewhere: every request asks. */
  readonly watching = true;
  private failuresSinceSweep = 0;

  constructor(
    private readonly query: Query,
    readonly max: number,
    readonly windowSeconds: number,
  ) {}

  async check(address: string): Promise<Failure | null> {
    const [row] = await this.query<{ times: number[]; now: number }>(
      `SELECT times, ${NOW_MS} AS now FROM lmskit_failed_logins WHERE address = $1`,
      [address.slice(0, MAX_ADDRESS)],
    );
    if (!row) return null;
    const windowMs = this.windowSeconds * 1000;
    const recent = row.times.filter((t) => t > row.now - windowMs);
    if (recent.length < this.max) return null;
    return tooManyFailures((recent[0] ?? 0) + windowMs - row.now);
  }

  async fail(address: string): Promise<void> {
    await this.query(
      `INSERT INTO lmskit_failed_logins AS f (address, times, last_ms)
       VALUES ($1, ARRAY[${NOW_MS}], ${NOW_MS})
       ON CONFLICT (address) DO UPDATE SET
         times = (SELECT array_agg(t ORDER BY t) FROM (
           SELECT t FROM unnest(f.times || EXCLUDED.times) AS u(t)
           WHERE t > EXCLUDED.last_ms - $2::float8 ORDER BY t DESC LIMIT $3) kept),
         last_ms = greatest(f.last_ms, EXCLUDED.last_ms)`,
      [address.slice(0, MAX_ADDRESS), this.windowSeconds * 1000, this.max],
    );
    if (++this.failuresSinceSweep >= SWEEP_EVERY) {
      this.failuresSinceSweep = 0;
      await this.query(`DELETE FROM lmskit_failed_logins WHERE last_ms <= ${NOW_MS} - $1::float8`, [
        this.windowSeconds * 1000,
      ]);
      await this.query(
        `DELETE FROM lmskit_failed_logins WHERE address IN (
           SELECT address FROM lmskit_failed_logins ORDER BY last_ms DESC OFFSET $1)`,
        [MAX_CLIENTS],
      );
    }
  }

  async clear(): Promise<void> {
    await this.query('DELETE FROM lmskit_failed_logins', []);
  }
}
