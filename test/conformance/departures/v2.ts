// Departures from seed 000, the MCP backend under /api/v2: the capabilities, the reads, the writes
// and the AI flow (conformance/checks/v2/), and the probes of its keys, scopes and refusals
// (conformance/checks/probes/). The v2 content judged by value: ./v2-data.ts.
import type { Departure, Json } from './kit.ts';
import {
  ABSENT,
  AI_TOOLS,
  accept,
  actAs,
  capabilitiesFor,
  fake,
  lendKey,
  onAnswer,
  onRequest,
  onStatus,
  pad,
  READ_KEY,
  UNKNOWN_ID,
  V2,
  V2_ANY,
  V2_ASSIGN_GROUPS,
  V2_CHANGE_EMAIL,
  V2_COURSE,
  V2_REFINE,
  V2_USER_ASSIGNMENTS,
  WRITE_KEY,
} from './kit.ts';

export const V2_DEPARTURES: Departure[] = [
  // --- v2 (seed 000) ---
  {
    name: 'v2 statistics answered without a key',
    seed: '000 Authentication 1: "Every request sends the key in header X-MCP-Key"; 5: "Missing ... key: 401"',
    catches: 'v2.auth.no-key.getStatistics',
    rewrites: () => [lendKey('GET', /^\/api\/v2\/statistics\//, 'x-mcp-key', READ_KEY)],
  },
  {
    name: 'a v2 401 with code AUTH_FAILED',
    seed: '000 Errors: "401 | UNAUTHORIZED | missing, invalid or revoked key"',
    catches: 'v2.auth.wrong-key',
    rewrites: () => [
      onStatus(V2_ANY, 401, (b) => {
        b.code = 'AUTH_FAILED';
      }),
    ],
  },
  {
    name: 'a read-only key assigns training',
    seed: '000 Write tools: "need write scope"',
    catches: 'v2.scope.read-key.assignUserToCourse',
    rewrites: () => [actAs('POST', /^\/api\/v2\/courses\/[^/]+\/assignments\/users$/, READ_KEY, WRITE_KEY)],
  },
  {
    name: 'a read-only key polls generation jobs',
    seed: '000 AI tools: get_course_generation_status "permission: write scope"',
    catches: 'v2.scope.read-key.getGenerationJob',
    rewrites: () => [actAs('GET', /^\/api\/v2\/ai\/courses\/generate\//, READ_KEY, WRITE_KEY)],
  },
  {
    name: 'a 403 without code',
    seed: '000 Errors: "Error body shape: {error: string, code: string}"',
    catches: 'v2.scope.read-key.banUser',
    rewrites: () => [onStatus(V2_ANY, 403, (b) => void delete b.code)],
  },
  {
    name: 'unbanning oneself allowed',
    seed: '000 Permission identifiers: "role hierarchy (the target user must be below the caller\'s role)"',
    catches: 'v2.permission.role-hierarchy',
    rewrites: () => [
      fake(
        'DELETE',
        `${V2}/users/banned/1`,
        () => true,
        () => ({ status: 200, body: { userId: 1, status: 'active' } }),
      ),
    ],
  },
  {
    name: 'find_user ignores its query',
    seed: '000 find_user: "query string required (name or e-mail substring, case-insensitive)"',
    catches: 'v2.users.search.matches-query',
    alsoFails: ['v2.users.ban-unban', 'v1.users.ban.persisted'],
    rewrites: () => [onRequest('GET', `${V2}/users`, (req) => req.query.set('query', '@'))],
  },
  {
    name: 'find_user is case-sensitive',
    seed: '000 find_user: "name or e-mail substring, case-insensitive"',
    catches: 'v2.users.search.case-insensitive',
    rewrites: () => [
      fake(
        'GET',
        `${V2}/users`,
        (req) => /[A-Z]/.test(req.query.get('query') ?? ''),
        () => ({ status: 200, body: { users: [], totalCount: 0 } }),
      ),
    ],
  },
  {
    name: 'find_user limit 51 yields 51 users',
    seed: '000 Limits: "find_user, find_course limit | default 20, maximum 50"',
    catches: 'v2.users.search.limit-cap',
    rewrites: () => [
      onRequest('GET', `${V2}/users`, (req) => {
        if (Number(req.query.get('limit')) > 50) req.query.set('limit', '50');
      }),
      onAnswer('GET', `${V2}/users`, (b, req) => {
        if (req.query.get('limit') === '50')
          b.users = pad(b.users, 51, (u: Json, i) => ({ ...u, id: 5000 + i }));
      }),
    ],
  },
  {
    name: 'find_course without a limit yields 25 courses',
    seed: '000 Limits: "find_user, find_course limit | default 20"',
    catches: 'v2.courses.search.default-limit',
    rewrites: () => [
      onRequest('GET', `${V2}/courses`, (req) => {
        req.query.get('limit') ?? req.query.set('limit', '25');
      }),
    ],
  },
  {
    name: 'find_course does not find a course by part of its name',
    seed: '000 find_course: "query string required (name substring)"',
    catches: 'v2.courses.search.substring',
    rewrites: () => [
      fake(
        'GET',
        `${V2}/courses`,
        (req) => (req.query.get('query') ?? '').length > 1,
        () => ({ status: 200, body: { courses: [], totalCount: 0 } }),
      ),
    ],
  },
  {
    name: 'leaderboard sorted the wrong way',
    seed: '000 get_leaderboard: "top learners by points/completion"',
    catches: 'v2.statistics.leaders.ordered',
    rewrites: () => [onAnswer('GET', `${V2}/statistics/leaders`, (b) => void b.leaders.reverse())],
  },
  {
    name: 'leaderboard without a limit yields 12 learners',
    seed: '000 Limits: "get_leaderboard limit | default 10, maximum 50"',
    catches: 'v2.statistics.leaders.default-limit',
    rewrites: () => [
      onAnswer('GET', `${V2}/statistics/leaders`, (b, req) => {
        if (!req.query.has('limit')) b.leaders = pad(b.leaders, 12, (l: Json, i) => ({ ...l, rank: i + 1 }));
      }),
    ],
  },
  {
    name: 'audit author filter ignored',
    seed: '000 get_audit_log: "GET /api/v2/audit with filters fields[author], ..."',
    catches: 'v2.audit.filter-author',
    rewrites: () => [onRequest('GET', `${V2}/audit`, (req) => req.query.delete('fields[author]'))],
  },
  {
    name: 'audit window ignored',
    seed: '000 get_audit_log: "fields[createdAt][from], fields[createdAt][to]"',
    catches: 'v2.audit.filter-window',
    rewrites: () => [
      onRequest('GET', `${V2}/audit`, (req) => {
        req.query.delete('fields[createdAt][from]');
        req.query.delete('fields[createdAt][to]');
      }),
    ],
  },
  {
    name: 'audit log default limit of 60',
    seed: '000 Limits: "get_audit_log limit | default 50, maximum 250"',
    catches: 'v2.audit.default-limit',
    rewrites: () => [
      onRequest('GET', `${V2}/audit`, (req) => {
        req.query.get('limit') ?? req.query.set('limit', '60');
      }),
    ],
  },
  {
    name: 'a v2 ban answered but not kept',
    seed: '000 ban_user: "revokes login and course access, keeps history"',
    catches: 'v2.users.ban-unban',
    rewrites: () => [
      fake(
        'POST',
        `${V2}/users/banned`,
        (req) => (req.json as Json)?.userId !== UNKNOWN_ID,
        (req) => ({
          status: 200,
          body: { userId: (req.json as Json).userId, status: 'banned' },
        }),
      ),
    ],
  },
  {
    name: 'an unban that does nothing',
    seed: '000 unban_user: "restores access"',
    catches: 'v2.users.ban-unban',
    rewrites: () => [
      fake(
        'DELETE',
        /^\/api\/v2\/users\/banned\/\d+$/,
        (req) => !req.path.endsWith(`/${UNKNOWN_ID}`) && !req.path.endsWith('/1'),
        (req) => ({
          status: 200,
          body: { userId: Number(req.path.split('/').pop()), status: 'active' },
        }),
      ),
    ],
  },
  {
    name: 're-assigning a user adds a second assignment',
    seed: '000 assign_training: "idempotent: re-assigning the same user is a no-op"',
    catches: 'v2.assign.user.idempotent',
    rewrites: () => [
      onAnswer('GET', V2_USER_ASSIGNMENTS, (b) => {
        b.assignments = [...b.assignments, ...b.assignments];
      }),
    ],
  },
  {
    name: 'a course assigned to a group not kept',
    seed: '000 bulk_assign: "assigns every course to the group"',
    catches: 'v2.assign.groups',
    rewrites: () => [
      fake(
        'POST',
        V2_ASSIGN_GROUPS,
        (req) => !req.path.includes(String(UNKNOWN_ID)) && Array.isArray((req.json as Json)?.groups),
        (req) => ({
          status: 200,
          body: { courseId: Number(req.path.split('/')[4]), groups: [], usersAssigned: 0, bannedSkipped: 0 },
        }),
      ),
    ],
  },
  {
    name: "another user's e-mail accepted by change_user_email",
    seed: '001 User: "email | unique across the site"; 000 change_user_email',
    catches: 'v2.users.email.change',
    rewrites: () => [
      accept('POST', V2_CHANGE_EMAIL, 409, (req) => ({
        userId: 1,
        email: (req.json as Json).email,
        notificationSent: true,
      })),
    ],
  },
  {
    name: 'a clone published at once',
    seed: '000 clone_course: "creates an unpublished copy"',
    catches: 'v2.courses.clone',
    rewrites: () => {
      const clones = new Set<number>();
      return [
        onAnswer('POST', `${V2}/courses/clone`, (b) => void clones.add(b.id)),
        onAnswer('GET', V2_COURSE, (b) => {
          if (clones.has(b.id)) b.isDraft = false;
        }),
      ];
    },
  },
  {
    name: 'a new generation job not queued',
    seed: '000 create_course_from_prompt: "status is always queued"',
    catches: 'v2.ai.generate.flow',
    rewrites: () => [
      onAnswer('POST', `${V2}/ai/courses/generate`, (b) => {
        b.status = 'running';
      }),
    ],
  },
  {
    name: 'a completed job without result.courseId',
    seed: '000 Generation job: "queued → completed ... result.courseId is set"',
    catches: 'v2.ai.generate.flow',
    rewrites: () => [onAnswer('GET', /^\/api\/v2\/ai\/courses\/generate\//, (b) => void delete b.result)],
  },
  {
    name: 'refining rewrites an existing element',
    seed: '000 refine_course: "append-only, never modifies or deletes existing content"',
    catches: 'v2.ai.refine.append-only',
    rewrites: () => {
      const refined = new Set<string>();
      return [
        onAnswer('POST', V2_REFINE, (_b, req) => void refined.add(req.path.split('/')[5] as string)),
        onAnswer('GET', V2_COURSE, (b) => {
          if (refined.has(String(b.id)) && b.structure?.elements?.[0])
            b.structure.elements[0].title = 'Rewritten';
        }),
      ];
    },
  },
  {
    name: 'a text file named .pdf accepted',
    seed: '000 Upload constraints: "PDF, DOC, DOCX, PNG, JPG, GIF, WebP"',
    catches: 'v2.ai.upload.type-by-content',
    rewrites: () => [
      accept('POST', `${V2}/chat/source-materials/upload`, 415, () => ({
        sessionId: 's',
        fileId: 'f',
        filename: 'notes.pdf',
        mimeType: 'application/pdf',
        size: 21,
      })),
    ],
  },
  {
    name: 'an upload over 20 MB accepted',
    seed: '000 Upload constraints: "20 MB maximum per file"',
    catches: 'v2.ai.upload.size-limit',
    rewrites: () => [
      accept('POST', `${V2}/chat/source-materials/upload`, 413, () => ({
        sessionId: 's',
        fileId: 'f',
        filename: 'too-large.pdf',
        mimeType: 'application/pdf',
        size: 20971521,
      })),
    ],
  },
  {
    name: `${ABSENT} offered`,
    seed: '000 What the service does 5: "Two further tools (extend_deadline, send_reminder) ... do not exist"',
    catches: 'v2.capabilities.no-phantom-tools',
    rewrites: () => [onAnswer('GET', `${V2}/mcp/capabilities`, (b) => void b.tools.push(ABSENT))],
  },
  {
    name: 'a read-only key offered ban_user',
    seed: '000 What the service does 3: "The tool list ... is filtered by key scope"',
    catches: 'v2.capabilities.tools-agree-with-scopes',
    rewrites: () => [capabilitiesFor(READ_KEY, (b) => void b.tools.push('ban_user'))],
  },
  {
    name: 'tier read with a write scope',
    seed: '000 Authentication 4: "read | all keys treated as read-only, including keys issued with write"',
    catches: 'v2.capabilities.tools-agree-with-scopes',
    rewrites: () => [
      capabilitiesFor(WRITE_KEY, (b) => {
        b.tier = 'read';
      }),
    ],
  },
  {
    name: 'AI switched off for the key, AI endpoints still working',
    seed: '000 Errors: "403 | MCP_AI_DISABLED | AI tool invoked while mcpAiAccess is false"',
    catches: 'v2.capabilities.withheld-refused',
    rewrites: () => [
      onAnswer('GET', `${V2}/mcp/capabilities`, (b) => {
        b.tools = b.tools.filter((t: string) => !AI_TOOLS.includes(t));
      }),
    ],
  },
  {
    name: "capabilities name someone else as the key's owner",
    seed: '000 Capabilities response: "user | object | id, name, email (the key owner)"',
    catches: 'v2.capabilities.owner',
    rewrites: () => [
      onAnswer('GET', `${V2}/mcp/capabilities`, (b) => {
        b.user.email = 'someone-else@demo.example';
      }),
    ],
  },
];
