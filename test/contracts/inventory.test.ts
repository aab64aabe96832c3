// Contract test (a): every operation and tool the seeds name exists in the contracts.
// These lists are copied by hand from the seeds on purpose — deriving them from the spec would
// make the test agree with whatever the spec says.
import { describe, expect, it } from 'vitest';
import {
  absentToolNames,
  loadTools,
  type ToolCategory,
  toolFiles,
  toolNamesOf,
} from '../../lib/tool-schemas.ts';
import { loadBundle, operations } from '../helpers.ts';

// Seed 001, "Endpoints" (paths relative to /openapi/v1).
const V1_DOCUMENTED = [
  'POST /custom/attributes/groups',
  'POST /custom/attributes/users',
  'POST /users',
  'PATCH /users/{userId}',
  'POST /users/blocked',
  'POST /groups',
  'PATCH /groups/{groupId}',
  'GET /groups/{groupId}/statistics',
  'GET /courses',
  'GET /courses/{courseId}',
  'POST /courses/{courseId}/assignments',
  'GET /courses/{courseId}/assignments/users',
  'GET /users/{userId}/assignments',
  'GET /statistics',
  'GET /webhook/{event}/last',
];
// Seed 001, "Endpoints": "The GET endpoints for custom attributes ... their paths: not shown".
const V1_ASSUMED = ['GET /custom/attributes/groups', 'GET /custom/attributes/users'];

// Seed 000, "Capabilities" and the three tool tables (paths relative to /api/v2).
const V2 = [
  'GET /mcp/capabilities',
  'GET /users',
  'GET /users/{userId}',
  'GET /courses',
  'GET /courses/{courseId}',
  'GET /users/{userId}/courses/assignments',
  'GET /groups/{groupId}/courses/assignments',
  'GET /courses/assigned/me',
  'GET /courses/{courseId}/statistics/users',
  'GET /users/{userId}/certificates',
  'GET /statistics/{scope}',
  'GET /statistics/leaders',
  'GET /audit',
  'POST /courses/{courseId}/assignments/users',
  'POST /courses/{courseId}/assignments',
  'POST /courseChains/{chainId}/assign',
  'POST /users/banned',
  'DELETE /users/banned/{userId}',
  'POST /users/{userId}/email/change',
  'POST /courses/clone',
  'POST /chat/source-materials/upload',
  'POST /chat/source-materials/process',
  'POST /ai/courses/generate',
  'GET /ai/courses/generate/{jobId}',
  'POST /ai/courses/{courseId}/refine',
  'POST /ai/questions/{questionId}/regenerate',
  'POST /ai/lessons/{lessonId}/regenerate',
];

// The admin operations outside tools drive the mock through (relative to /__admin).
const ADMIN = [
  'GET /health',
  'POST /reset',
  'GET /tenants/{tenantId}',
  'PATCH /tenants/{tenantId}',
  'GET /tenants/{tenantId}/users',
  'POST /tenants/{tenantId}/mcp-keys',
  'GET /tenants/{tenantId}/mcp-keys/{keyId}',
  'DELETE /tenants/{tenantId}/mcp-keys/{keyId}',
  'GET /clock',
  'POST /clock/advance',
];

// Seed 000, "What the service does" item 5 and the tool tables. The one place the seed's tool list is
// written out: it checks the files of mcp-schema/ against the seed; everything else reads the files.
const TOOLS = {
  read: [
    'find_user',
    'get_user',
    'find_course',
    'get_course',
    'list_assignments',
    'list_my_assignments',
    'get_compliance_status',
    'list_certificates',
    'get_statistics',
    'get_leaderboard',
    'get_audit_log',
  ],
  write: [
    'assign_training',
    'bulk_assign',
    'assign_chain',
    'ban_user',
    'unban_user',
    'change_user_email',
    'clone_course',
  ],
  'ai-generation': [
    'upload_source_material',
    'create_course_from_prompt',
    'create_course_from_files',
    'get_course_generation_status',
  ],
  'ai-refinement': ['refine_course', 'regenerate_question', 'regenerate_lesson'],
};
const ANNOUNCED_BUT_ABSENT = ['extend_deadline', 'send_reminder'];

const signatures = (api: 'v1' | 'v2' | 'admin') =>
  operations(loadBundle(api)).map(({ method, path }) => `${method.toUpperCase()} ${path}`);

/**
 * The operations of `api` the seed does not name: each must be marked `x-assumed: true` in the contract
 * (docs/adr-0002: a choice where the seed is silent is written down where it is made).
 */
const unnamedNotAssumed = (api: 'v1' | 'v2', named: string[]) => {
  const spec = loadBundle(api);
  return signatures(api).filter((sig) => {
    const [method, path] = sig.split(' ') as [string, string];
    return !named.includes(sig) && spec.paths[path]?.[method.toLowerCase()]?.['x-assumed'] !== true;
  });
};

describe('contract inventory (seeds 000 and 001)', () => {
  it('v1 has all 15 documented operations of seed 001', () => {
    expect(V1_DOCUMENTED).toHaveLength(15);
    expect(
      V1_DOCUMENTED.filter((sig) => !signatures('v1').includes(sig)),
      'missing from openapi/v1',
    ).toEqual([]);
  });

  it('v1 has the attribute GET endpoints seed 001 mentions without paths, marked assumed', () => {
    const spec = loadBundle('v1');
    for (const sig of V1_ASSUMED) {
      const [method, path] = sig.split(' ') as [string, string];
      expect(spec.paths[path]?.[method.toLowerCase()]?.['x-assumed'], sig).toBe(true);
    }
  });

  it('v1 has no operation the seed does not name, unless the contract marks it x-assumed', () => {
    expect(
      unnamedNotAssumed('v1', V1_DOCUMENTED),
      'operations of openapi/v1 seed 001 does not name: mark each `x-assumed: true`',
    ).toEqual([]);
  });

  it('v2 has the 26 tool backends and the capabilities endpoint of seed 000; any other is marked x-assumed', () => {
    expect(V2).toHaveLength(27);
    expect(
      V2.filter((sig) => !signatures('v2').includes(sig)),
      'missing from openapi/v2',
    ).toEqual([]);
    expect(
      unnamedNotAssumed('v2', V2),
      'operations of openapi/v2 seed 000 does not name: mark each `x-assumed: true`',
    ).toEqual([]);
  });

  it('admin has every operation outside tools rely on', () => {
    expect(signatures('admin')).toEqual(expect.arrayContaining(ADMIN));
  });

  it('mcp-schema has each tool of the seed, by category; any other is marked x-assumed', () => {
    for (const [category, names] of Object.entries(TOOLS)) {
      const files = toolNamesOf(category as ToolCategory);
      expect(
        names.filter((n) => !files.includes(n)),
        `${category} tools missing from mcp-schema/`,
      ).toEqual([]);
    }
    const seed = Object.values(TOOLS).flat();
    const unnamed = loadTools().filter((t) => !seed.includes(t.name) && t['x-assumed'] !== true);
    expect(
      unnamed.map((t) => `mcp-schema/${t.name}.json`),
      'tools seed 000 does not name: mark each `"x-assumed": true` (mcp-schema/README.md)',
    ).toEqual([]);
  });

  it('the two announced tools without a backend are listed as absent and have no definition', () => {
    expect(absentToolNames().sort()).toEqual(ANNOUNCED_BUT_ABSENT);
    for (const name of ANNOUNCED_BUT_ABSENT) expect(toolFiles()).not.toContain(`${name}.json`);
  });
});
