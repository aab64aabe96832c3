// Webhook attempts in a shared store (docs/mock.md, Shared sandbox, Webhooks): every replica sees every
// pending delivery, and the one whose claim on an attempt lands first sends it, so each event is
// delivered once, by whichever replica is alive. A claim is a row per attempt: inserted, or taken over
// once its lease lapsed and its attempt was never recorded (its replica died mid-attempt).
import type { DeliveryClaims } from '../webhooks/dispatcher.ts';
import type { Query } from './postgres-limits.ts';

const NOW_MS = 'extract(epoch FROM clock_timestamp()) * 1000';
/** Recorded claims kept this long (a replica's memory lags the log by far less), then swept. */
const KEEP_RECORDED_MS = 3_600_000;
/** Claims made by this replica between two sweeps. */
const SWEEP_EVERY = 256;

export function postgresDeliveryClaims(query: Query): DeliveryClaims {
  let sinceSweep = 0;
  return {
    async claim(delivery, attempt, leaseMs) {
      const rows = await query(
        `INSERT INTO lmskit_delivery_claims AS c (delivery, attempt, until_ms, recorded)
         VALUES ($1, $2, ${NOW_MS} + $3::float8, false)
         ON CONFLICT (delivery, attempt) DO UPDATE SET until_ms = EXCLUDED.until_ms
           WHERE NOT c.recorded AND c.until_ms < ${NOW_MS}
         RETURNING 1`,
        [delivery, attempt, leaseMs],
      );
      if (++sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        await query(
          `DELETE FROM lmskit_delivery_claims WHERE recorded AND until_ms < ${NOW_MS} - $1::float8`,
          [KEEP_RECORDED_MS],
        );
      }
      return rows.length === 1;
    },
    async recorded(delivery, attempt) {
      await query('UPDATE lmskit_delivery_claims SET recorded = true WHERE delivery = $1 AND attempt = $2', [
        delivery,
        attempt,
      ]);
    },
    async clear() {
      await query('DELETE FROM lmskit_delivery_claims', []);
    },
  };
}
