// The conformance suite proven against departures it was not written around (./mutation-matrix.ts
// says how): the matrix itself, and each departure of ./departures/ failing the MUST check named for
// it. The legitimate variations are in mutations-variations.test.ts, so the two halves of the matrix
// run side by side on the two workers of `npm test`.
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import { DEPARTURES, VARIATIONS } from './departures/index.ts';
import { departuresPart } from './mutation-matrix.ts';

describe('the mutation matrix', () => {
  it('has at least 40 departures across v1, v2 and the tool server, each traced to a seed sentence and named for a MUST check', () => {
    expect(DEPARTURES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(DEPARTURES.map((d) => d.name)).size).toBe(DEPARTURES.length);
    const levels = new Map(ALL_CHECKS.map((c) => [c.id, c.level]));
    for (const d of DEPARTURES) {
      expect(d.seed, d.name).toMatch(/^(000|001|MCP specification)\b/);
      expect(levels.get(d.catches), d.name).toBe('MUST');
    }
    const by = (prefix: string) => DEPARTURES.filter((d) => d.catches.startsWith(prefix)).length;
    expect(by('v1.')).toBeGreaterThanOrEqual(10);
    expect(by('v2.')).toBeGreaterThanOrEqual(10);
    expect(by('mcp.')).toBeGreaterThanOrEqual(5);
  });

  it('has at least 16 legitimate variations, each a choice the seeds leave open', () => {
    expect(VARIATIONS.length).toBeGreaterThanOrEqual(16);
    for (const v of VARIATIONS) expect(v.choice, v.name).toMatch(/not shown|kit|forbid/);
  });
});

departuresPart(1, 1);
