// The Node flags `lmskit` runs with: those of bin/lmskit.js's first line (`#!/usr/bin/env -S node
// FLAGS`), so that the bench starts the kit's servers as an installed `lmskit` and `npm start` do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';

export function lmskitNodeFlags(root = ROOT): string[] {
  const first = readFileSync(join(root, 'bin', 'lmskit.js'), 'utf8').split('\n', 1)[0] ?? '';
  const [, flags = ''] = /^#!\/usr\/bin\/env -S node(.*)$/.exec(first) ?? [];
  return flags.split(' ').filter(Boolean);
}
