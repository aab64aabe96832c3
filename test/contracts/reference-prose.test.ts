// The references of the platform's APIs speak of the rule, not of where it is written: an operation's
// Source line (`x-seed`, shown by the docs site) cites the seed, and no description repeats a citation
// ("seed 001, Users: 404") a reader of the reference cannot follow. The overview (`info`) says what the
// seeds are.
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../helpers.ts';

/** Every description under `node`, with where it is. */
function descriptions(node: unknown, at: string, out: [string, string][] = []): [string, string][] {
  if (!node || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') out.push([at, value]);
    else descriptions(value, `${at}.${key}`, out);
  }
  return out;
}

describe('reference prose of v1 and v2', () => {
  it.each(['v1', 'v2'] as const)('%s: no description but the overview cites a seed', (api) => {
    const { info: _, ...rest } = loadBundle(api);
    const citing = descriptions(rest, api).filter(([, text]) => /\bseed 00[01]\b/i.test(text));
    expect(citing.map(([at]) => at)).toEqual([]);
  });
});
