// Shared test helpers: the bundled specs as the rest of the kit loads them.
import { readFileSync } from 'node:fs';
import { type ApiName, bundlePath } from '../lib/paths.ts';
import { loadTools, type ToolCategory } from '../lib/tool-schemas.ts';

export type Spec = Record<string, any>;

export const loadBundle = (api: ApiName): Spec => JSON.parse(readFileSync(bundlePath(api), 'utf8'));

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** Every operation of a spec as `{method, path, operation, parameters}`, path-level parameters included. */
export function operations(spec: Spec) {
  return Object.entries(spec.paths as Record<string, Spec>).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((method) => ({
      method,
      path,
      operation: item[method] as Spec,
      parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])] as Spec[],
    })),
  );
}

/** The names of the tools of the given categories, in index order, as mcp-schema/ lists them. */
export const toolNamesIn = (...categories: ToolCategory[]): string[] =>
  loadTools()
    .filter((t) => categories.includes(t['x-category']))
    .map((t) => t.name);
