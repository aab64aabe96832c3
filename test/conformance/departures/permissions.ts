// Departures of the permission checks (conformance/checks/v2/permissions.ts, hierarchy.ts,
// ownership.ts) and of the tool server's role rules (conformance/checks/mcp/): keys that act as
// someone else, permissions, the role hierarchy, chain ownership and `course_edit` ignored, a banned
// owner let in, and a tool server that drops a call, renames a parameter or acts as a service account.
import { PERMISSION_CHECK_IDS } from '../../../conformance/checks/v2/permissions.ts';
import type { ProxiedRequest } from '../proxy.ts';
import type { Departure, Json } from './kit.ts';
import {
  actAs,
  capabilitiesFor,
  dropFields,
  fake,
  keyOf,
  onAnswer,
  onRequest,
  onRpc,
  V1,
  V2,
  V2_ANY,
  V2_ASSIGN_CHAIN,
  V2_ASSIGN_GROUPS,
  V2_CHANGE_EMAIL,
  V2_USER,
} from './kit.ts';

/** The tool server's own requests to the backend (mcp-server/backend.ts, MCP_USER_AGENT). */
const fromToolServer = (req: ProxiedRequest) => req.headers['user-agent'] === 'lmskit-mcp';

/** The tool call a JSON-RPC request to /mcp makes, if any. */
const toolCall = (req: ProxiedRequest) => {
  const call = req.json as Json;
  return call?.method === 'tools/call' ? (call.params as { name: string; arguments: Json }) : undefined;
};

export const PERMISSION_DEPARTURES: Departure[] = [
  {
    name: 'every role key acts as the admin',
    seed: '000 Authentication 2: "The key acts as its owning user; permissions are those of the owner."',
    catches: 'v2.permission.role-keys.owners',
    alsoFails: ['v2.permission.hierarchy.same-rank', 'v2.permission.course-edit.refine'],
    rewrites: (keys) => {
      const roles = Object.values(keys.roles);
      return [
        {
          path: /^\/(api\/v2\/|mcp)/,
          request: (req) => {
            if (roles.includes(keyOf(req) ?? '')) req.headers['x-mcp-key'] = keys.write;
          },
        },
      ];
    },
  },
  {
    name: 'the backend ignores permissions',
    seed: '000 Errors: "403 | varies per endpoint | valid key but the owning user lacks permission"',
    catches: 'v2.permission.refused.audit',
    alsoFails: [
      ...PERMISSION_CHECK_IDS.filter((id) => id !== 'v2.permission.refused.audit'),
      'v2.capabilities.withheld-refused',
    ],
    // The capabilities stay the owner's; every other call is made as the admin.
    rewrites: (keys) => {
      const roles = Object.values(keys.roles);
      return [
        {
          path: V2_ANY,
          request: (req) => {
            if (req.path !== `${V2}/mcp/capabilities` && roles.includes(keyOf(req) ?? ''))
              req.headers['x-mcp-key'] = keys.write;
          },
        },
      ];
    },
  },
  {
    name: 'the learner offered get_user',
    seed: '000 What the service does 3: "The tool list offered to the agent is filtered by ... the owner\'s permissions"',
    catches: 'v2.permission.refused.get-user',
    alsoFails: ['v2.capabilities.permission-groups'],
    rewrites: (keys) => [capabilitiesFor(keys.roles.learner, (b) => void b.tools.push('get_user'))],
  },
  {
    name: 'list_my_assignments not offered to the learner',
    seed: '000 Read tools: "list_my_assignments | none | any role"',
    catches: 'v2.permission.my-assignments.any-role',
    rewrites: (keys) => [
      capabilitiesFor(keys.roles.learner, (b) => {
        b.tools = b.tools.filter((t: string) => t !== 'list_my_assignments');
      }),
    ],
  },
  {
    name: 'the role hierarchy ignored by ban_user',
    seed: '000 Permission identifiers: "role hierarchy (the target user must be below the caller\'s role)"',
    catches: 'v2.permission.hierarchy.same-rank',
    alsoFails: ['v2.permission.hierarchy.above'],
    // A manager's ban is carried out as the site's own ban (v1), which knows no hierarchy.
    rewrites: (keys) => {
      const apiIds = new Map<number, string>();
      return [
        onAnswer('GET', V2_USER, (b) => void apiIds.set(b.id, b.apiId)),
        onRequest('POST', `${V2}/users/banned`, (req) => {
          const apiId = apiIds.get((req.json as Json)?.userId);
          if (keyOf(req) !== keys.roles.manager || !apiId) return;
          req.path = `${V1}/users/blocked`;
          req.json = { id: apiId };
          delete req.headers['x-mcp-key'];
          req.headers['x-api-key'] = keys.site;
        }),
      ];
    },
  },
  {
    name: 'the role hierarchy ignored by change_user_email',
    seed: '000 change_user_email: "user_edit plus role hierarchy"',
    catches: 'v2.permission.hierarchy.above',
    alsoFails: ['v2.permission.hierarchy.same-rank'],
    rewrites: (keys) => [
      fake(
        'POST',
        V2_CHANGE_EMAIL,
        (req) => keyOf(req) === keys.roles.manager,
        (req) => ({
          status: 200,
          body: {
            userId: Number(req.path.split('/')[4]),
            email: (req.json as Json).email,
            notificationSent: true,
          },
        }),
      ),
    ],
  },
  {
    name: 'chain ownership ignored',
    seed: '000 assign_chain: "user_assign plus caller owns the chain"',
    catches: 'v2.chains.assign.not-owner',
    rewrites: (keys) => [actAs('POST', V2_ASSIGN_CHAIN, keys.roles.manager, keys.write)],
  },
  {
    name: 'a chain assigned without its deadline',
    seed: '000 assign_chain: "<deadline> integer optional, Unix seconds, for the whole chain"',
    catches: 'v2.chains.assign',
    rewrites: () => [dropFields('POST', V2_ASSIGN_CHAIN, 'deadlineAt')],
  },
  {
    name: 'a chain assigned to its users only',
    seed: '000 assign_chain: "<users> integer[] optional; <groups> integer[] optional ... assigns an ordered learning path"',
    catches: 'v2.chains.assign',
    rewrites: () => [dropFields('POST', V2_ASSIGN_CHAIN, 'groups')],
  },
  {
    name: 'course_edit on a specific course ignored',
    seed: '000 Permission identifiers: "course_edit on the specific course (owning, sharing or administering it)"',
    catches: 'v2.permission.course-edit.refine',
    alsoFails: [
      'v2.permission.course-edit.regenerate-question',
      'v2.permission.course-edit.regenerate-lesson',
      'v2.permission.course-edit.clone',
    ],
    // The author holds course_edit; the deployment forgets to ask on which course.
    rewrites: (keys) => [actAs('POST', /^\/api\/v2\/(ai\/|courses\/clone$)/, keys.roles.author, keys.write)],
  },
  {
    name: "a banned owner's key still accepted",
    seed: '000 Authentication 5: "Missing, invalid or revoked key, or a banned owner: 401."',
    catches: 'v2.auth.banned-owner',
    rewrites: (keys) => [
      {
        path: V2_ANY,
        response: (answer, req) => {
          if (answer.status !== 401 || keyOf(req) !== keys.roles.learner) return;
          return {
            status: 200,
            body: {
              tier: 'full',
              scopes: { read: true, write: true },
              user: { id: 6, name: 'Lena Learner', email: 'lena@demo.example' },
              tools: ['list_my_assignments'],
              resources: [],
            },
          };
        },
      },
    ],
  },
  {
    name: 'bulk_assign assigns only the first course',
    seed: '000 bulk_assign: "one POST /api/v2/courses/:courseId/assignments per course ... assigns every course to the group"',
    catches: 'mcp.tools.bulk-assign.every-course',
    // The tool server's second call is answered as the first was, and never made.
    rewrites: () => {
      const first = new Map<string, Json>();
      return [
        {
          method: 'POST',
          path: V2_ASSIGN_GROUPS,
          request: (req) => {
            const group = JSON.stringify((req.json as Json)?.groups);
            const answered = first.get(group);
            if (!fromToolServer(req) || !answered) return;
            return { status: 200, body: { ...answered, courseId: Number(req.path.split('/')[4]) } };
          },
          response: (answer, req) => {
            if (fromToolServer(req) && answer.status === 200)
              first.set(JSON.stringify((req.json as Json)?.groups), answer.body);
          },
        },
      ];
    },
  },
  {
    name: 'list_assignments with both ids answered for the user',
    seed: '000 list_assignments: "userId integer XOR groupId integer (exactly one required; mutually exclusive)"',
    catches: 'mcp.tools.list-assignments.exactly-one',
    rewrites: () => [
      onRequest('POST', '/mcp', (req) => {
        const call = toolCall(req);
        if (call?.name === 'list_assignments' && call.arguments?.userId !== undefined)
          delete call.arguments.groupId;
      }),
    ],
  },
  {
    name: "find_course's query parameter named search",
    seed: '000 Endpoints: "Parameter names are given where the tool\'s documentation names them (query, ...)"',
    catches: 'mcp.tools.parameter-names',
    rewrites: () => [
      onRpc('tools/list', (r) => {
        const schema = r.tools.find((t: Json) => t.name === 'find_course')?.inputSchema;
        if (!schema) return;
        schema.properties.search = schema.properties.query;
        delete schema.properties.query;
        schema.required = ['search'];
      }),
    ],
  },
  {
    name: 'the tool server calls the backend as a service account',
    seed: '000 What the service does 2: "Every tool call runs with that user\'s permissions ... There is no separate permission system for tools."',
    catches: 'mcp.tools.role-keys.act-as-owner',
    // It reads each key's capabilities, then makes every call with one key of its own.
    rewrites: (keys) => [
      {
        path: V2_ANY,
        request: (req) => {
          if (fromToolServer(req) && req.path !== `${V2}/mcp/capabilities`)
            req.headers['x-mcp-key'] = keys.write;
        },
      },
    ],
  },
];
