// The tables of a shared store (docs/mock.md, Shared sandbox; docs/adr-0007-shared-sandbox.md): the
// command log every replica applies in order, the snapshots a replica starts from, the pipeline's
// counters (postgres-limits.ts), the claims on webhook attempts (postgres-claims.ts), the request
// journal every replica lists (postgres-journal.ts), and the schema's version. Made on the first
// start, under a lock so that replicas starting together make them once; a store whose schema is
// newer than this lmskit's is refused, never altered. Each is `IF NOT EXISTS`, so a store made before
// a table was added gets it at a replica's next start, at the same version.
import type { PoolClient } from 'pg';

/** The schema this lmskit writes and reads; a store at a higher one was made by a newer lmskit. */
export const SCHEMA_VERSION = 1;

/** Advisory lock keys (any two fixed numbers no other program of the database uses). */
export const LOCKS = {
  /** Held while the schema is made or checked. */
  schema: 0x6c6d_7301,
  /** Held by the one replica that is writing: the order of the command log. */
  write: 0x6c6d_7302,
} as const;

/** The channel a commit notifies, so that replicas waiting for nothing hear of new commands. */
export const CHANNEL = 'lmskit_commands';

const TABLES = `
  CREATE TABLE IF NOT EXISTS lmskit_meta (key text PRIMARY KEY, value text NOT NULL);
  CREATE TABLE IF NOT EXISTS lmskit_commands (seq bigint PRIMARY KEY, entry text NOT NULL);
  CREATE TABLE IF NOT EXISTS lmskit_snapshots (seq bigint PRIMARY KEY, state text NOT NULL);
  CREATE TABLE IF NOT EXISTS lmskit_rate (
    key_id text PRIMARY KEY, tokens float8 NOT NULL, at_ms float8 NOT NULL, admitted boolean NOT NULL);
  CREATE TABLE IF NOT EXISTS lmskit_failed_logins (
    address text PRIMARY KEY, times float8[] NOT NULL, last_ms float8 NOT NULL);
  CREATE INDEX IF NOT EXISTS lmskit_failed_logins_last ON lmskit_failed_logins (last_ms);
  CREATE TABLE IF NOT EXISTS lmskit_delivery_claims (
    delivery text, attempt integer, until_ms float8 NOT NULL, recorded boolean NOT NULL,
    PRIMARY KEY (delivery, attempt));
  -- The request journal: one row per slot, a request's slot its seq modulo the journal's size, so the
  -- table never holds more rows than the journal holds requests, whatever clients send. Entries are
  -- JSON text rather than jsonb: a header or body may hold the NUL character, which jsonb refuses.
  -- Unlogged: the journal is diagnostics, and a commit that waits for no disk flush costs every answer
  -- less; PostgreSQL empties it after a crash of its own and does not copy it to a standby.
  CREATE UNLOGGED TABLE IF NOT EXISTS lmskit_journal (slot integer PRIMARY KEY, seq bigint NOT NULL, entry text NOT NULL);
  CREATE INDEX IF NOT EXISTS lmskit_journal_by_seq ON lmskit_journal (seq);
  CREATE SEQUENCE IF NOT EXISTS lmskit_journal_seq;
`;

/** The store was made by a newer lmskit: this one neither reads nor alters it. */
export class StoreFromNewerVersion extends Error {
  constructor(readonly version: number) {
    super(
      `the store's schema has version ${version}: a newer lmskit made it, and this one reads version ${SCHEMA_VERSION}; start this replica with that lmskit`,
    );
    this.name = 'StoreFromNewerVersion';
  }
}

/** Makes the tables if they are missing and checks the schema's version; inside the caller's transaction. */
export async function prepareSchema(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.schema]);
  await client.query(TABLES);
  const { rows } = await client.query<{ value: string }>(
    "SELECT value FROM lmskit_meta WHERE key = 'schema_version'",
  );
  const found = rows[0] ? Number(rows[0].value) : undefined;
  if (found === undefined)
    await client.query("INSERT INTO lmskit_meta (key, value) VALUES ('schema_version', $1)", [
      String(SCHEMA_VERSION),
    ]);
  else if (found > SCHEMA_VERSION) throw new StoreFromNewerVersion(found);
}
