// The examples of /api/v2 and the admin API show the same users as v1 does: every `apiId` in them
// is a v1 user API ID, so it fits the pattern v1 gives `User.id` (seed 001, User: `id`
// "alphanumeric unique identifier"; docs/adr-0002: one platform state behind both APIs).
import { describe, expect, it } from 'vitest';
import { loadBundle, type Spec } from '../helpers.ts';

/** Every example value of an `apiId` below `node` (in examples, and in `apiId` schemas' examples), with where it is. */
function* apiIds(node: unknown, at: string[]): Generator<[string, unknown]> {
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Spec)) {
    const where = [...at, key].join('/');
    if (key === 'apiId' && typeof value === 'string') yield [where, value];
    if (key === 'apiId' && value && typeof value === 'object') {
      const schema = value as Spec;
      for (const example of [
        ...(schema.examples ?? []),
        ...(schema.example !== undefined ? [schema.example] : []),
      ])
        yield [`${where}/examples`, example];
    }
    yield* apiIds(value, [...at, key]);
  }
}

describe('example apiIds are v1 user API IDs (seed 001, User: id alphanumeric)', () => {
  const pattern = new RegExp(loadBundle('v1').components.schemas.User.properties.id.pattern);

  it.each(['v2', 'admin'] as const)('every apiId in the %s contract fits the v1 pattern', (api) => {
    const found = [...apiIds(loadBundle(api), [])];
    expect(found.length).toBeGreaterThan(0);
    for (const [where, value] of found) expect(value, where).toMatch(pattern);
  });
});
