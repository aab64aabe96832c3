// The contracts' layout (openapi/README.md): one file per path under `paths/`, named after the path
// with `/` as `_`, each one referenced from its root document. A path file the root does not name is
// never bundled, so nothing else would notice an operation written and forgotten there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../lib/paths.ts';

describe.each(['v1', 'v2', 'admin'])('openapi/%s', (api) => {
  const dir = join(ROOT, 'openapi', api);
  const root = parse(readFileSync(join(dir, 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, { $ref?: string }>;
  };

  it('references every file of paths/ from openapi.yaml, under the path its name spells', () => {
    const referenced = Object.fromEntries(
      Object.entries(root.paths).map(([path, item]) => [item.$ref ?? '', path]),
    );
    for (const file of readdirSync(join(dir, 'paths'))) {
      const path = referenced[`paths/${file}`];
      expect(path, `openapi/${api}/openapi.yaml names no path for paths/${file}`).toBeDefined();
      expect(`${(path as string).slice(1).replaceAll('/', '_')}.yaml`, `openapi/${api}/paths/${file}`).toBe(
        file,
      );
    }
  });

  it('has only $refs under paths in openapi.yaml', () => {
    for (const [path, item] of Object.entries(root.paths))
      expect(Object.keys(item), `openapi/${api}/openapi.yaml ${path}`).toEqual(['$ref']);
  });
});
