// Where the kit's files live, so no module guesses relative paths of its own.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The three APIs, by the names `redocly.yaml` gives them. */
export const API_NAMES = ['v1', 'v2', 'admin'] as const;
export type ApiName = (typeof API_NAMES)[number];

export const GENERATED_DIR = join(ROOT, 'generated');
/** The one-file bundle of an API that the other parts load at run time. */
export const bundlePath = (api: ApiName, dir = GENERATED_DIR) => join(dir, 'openapi', `${api}.json`);
export const TOOL_SCHEMA_DIR = join(ROOT, 'mcp-schema');
/** The rule catalogue of the two seeds, written by hand, and the JSON `npm run generate` makes of it. */
export const RULES_SOURCE = join(ROOT, 'docs', 'requirements', 'rules.yaml');
export const rulesPath = (dir = GENERATED_DIR) => join(dir, 'rules.json');
/** Where `npm run docs` writes the site (git-ignored); the mock serves it at /docs. */
export const DOCS_SITE_DIR = join(ROOT, 'docs', 'site');
