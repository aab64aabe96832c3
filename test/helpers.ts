// Shared test helpers: the bundled specs as the rest of the kit loads them.
import { readFileSync } from 'node:fs';
import { type ApiName, bundlePath } from '../lib/paths.ts';
import type { Node } from '../lib/spec-walk.ts';
import { loadTools, type ToolCategory } from '../lib/tool-schemas.ts';

export { HTTP_METHODS, operations } from '../lib/spec-walk.ts';
export type Spec = Node;

export const loadBundle = (api: ApiName): Spec => JSON.parse(readFileSync(bundlePath(api), 'utf8'));

/** The names of the tools of the given categories, in index order, as mcp-schema/ lists them. */
export const toolNamesIn = (...categories: ToolCategory[]): string[] =>
  loadTools()
    .filter((t) => categories.includes(t['x-category']))
    .map((t) => t.name);
