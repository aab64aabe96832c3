// An integrator who generates types of their own from the contracts (docs/guide.md, Types) gets clean
// ones from openapi-typescript with its stock options and the one the guide names,
// `defaultNonNullable: false`: no request body is `{…} | unknown`, and a property with a default a
// client may leave out (createUser's `fromApi`) stays optional.
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../helpers.ts';

describe("openapi-typescript's own output for the platform's APIs", () => {
  it.each(['v1', 'v2'] as const)('%s: no type widened to unknown, defaults optional', async (api) => {
    const types = astToString(
      await openapiTS(loadBundle(api) as unknown as Parameters<typeof openapiTS>[0], {
        defaultNonNullable: false,
      }),
    );
    expect(types.match(/\| unknown\b.*/g) ?? []).toEqual([]);
    if (api === 'v1') expect(types).toMatch(/fromApi\?: boolean/);
  });
});
