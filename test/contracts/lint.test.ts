// Contract test (e): `npm run lint` is clean — Redocly on the three APIs with no errors and no
// warnings, strict ajv on every tool schema, Biome and TypeScript's native checker on the code
// (tsc 5.9 too in `npm run lint`, which CI runs: lib/lint.ts).
import { describe, expect, it } from 'vitest';
import { lintCode, lintSpecs, lintToolSchemas } from '../../lib/lint.ts';

describe('lint is clean', () => {
  it('Redocly reports no problem in v1, v2 or admin', async () => {
    expect(await lintSpecs()).toEqual([]);
  }, 120_000);

  it('every tool schema compiles under strict ajv and sets all four annotations', () => {
    expect(lintToolSchemas()).toEqual([]);
  });

  it('Biome and the TypeScript compiler accept all code', async () => {
    expect(await lintCode({ tsc5: false })).toEqual([]);
  }, 180_000);
});
