// How the bench starts a mock process: the same flags for every section (no rate limit, a frozen
// clock, one admin token), so that what differs between contenders is only what a section adds.
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { lmskitNodeFlags } from './node-flags.ts';

export const ADMIN = 'bench-admin-token';

/** The arguments of `node` that start `lmskit mock` on `port`, with `extra` flags. */
export const mockArgs = (port: number, extra: string[]) => [
  ...lmskitNodeFlags(),
  join(ROOT, 'bin', 'lmskit.js'),
  'mock',
  '--port',
  String(port),
  '--admin-token',
  ADMIN,
  '--rate-limit',
  '0',
  '--frozen-clock',
  ...extra,
];
