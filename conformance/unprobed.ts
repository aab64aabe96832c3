// What the suite leaves alone on purpose, each with the reason; docs/conformance.md lists them, and
// a test fails when a seed rule of the contracts or a documented response is neither checked nor here.

/** Seed rules (`x-seed-rules` ids) no check covers. */
export const UNPROBED_RULES: Record<string, string> = {
  '001/users.ban-licence': 'no API shows whether a user can log in or counts towards the licence',
  '001/webhooks.course-finished':
    'a learner finishes a course in the platform itself; the API cannot make one finish',
  '001/webhooks.retention': "needs an event older than 30 days; the suite cannot move a deployment's clock",
  '000/keys.last-used': 'the key records are kept in the settings UI, which has no API',
  '000/generate.module-count':
    "the seed does not show how modules appear in a course's structure (the kit makes each a lesson and a question)",
  '000/auth.revoked-or-banned':
    'keys are revoked in the settings UI, which has no API; banning a key owner would lock that key out',
  '000/licence.none':
    'needs a key of a tenant whose mcpAccess is none, and such a tenant is not part of one deployment under test',
  '000/licence.ai-disabled': 'needs a tenant whose mcpAiAccess is false',
  '000/assign-chain':
    'the API offers no way to find a chain the key owner owns; only the refusals are probed (no key, read-only key, unknown or malformed chain)',
  '000/regenerate':
    "each call counts against the day's AI quota, and the run's AI budget goes to one generation and one refinement; only the refusals without a key and with a read-only key are probed",
  '000/ai.quota':
    "reaching it would spend the tenant's AI calls for the day; a 429 met is reported as blocked",
  '000/rate-limits':
    'provoking them is what a polite client must not do; the suite waits out a 429, or reports blocked',
  '000/tool-server.retries': 'the suite cannot make the backend behind a tool server answer 429',
};

interface UnprobedResponse {
  api: 'v1' | 'v2';
  /** An operationId, or a test on the operation's contract. */
  operation: string | ((op: Record<string, unknown>) => boolean);
  status: number;
  reason: string;
}

const aiQuota = (op: Record<string, unknown>) => op['x-ai-quota'] === true;

/** Documented responses (operation × status) no check provokes. */
export const UNPROBED_RESPONSES: UnprobedResponse[] = [
  { api: 'v2', operation: () => true, status: 429, reason: 'the suite never provokes a limit (Politeness)' },
  ...(['v1', 'v2'] as const).map(
    (api): UnprobedResponse => ({
      api,
      operation: () => true,
      status: 503,
      reason:
        'a deployment answers 503 when it cannot save a write or is busy reading files; the suite cannot fail its disk or fill its workers',
    }),
  ),
  {
    api: 'v2',
    operation: (op) => op['x-scope'] === 'read',
    status: 403,
    reason:
      'needs a key whose owner lacks the permission, or a tenant without MCP; seed 000 has keys made by admins',
  },
  ...[400, 404, 422].map(
    (status): UnprobedResponse => ({
      api: 'v2',
      operation: aiQuota,
      status,
      reason: "a call may count against the day's AI quota even when refused",
    }),
  ),
  {
    api: 'v2',
    operation: 'uploadSourceMaterial',
    status: 404,
    reason:
      "an unknown sessionId is 404 only by the kit's choice; a deployment may open a session of that name",
  },
  {
    api: 'v2',
    operation: 'assignCourseChain',
    status: 200,
    reason: 'the API offers no way to find a chain the key owner owns',
  },
  ...['regenerateQuestion', 'regenerateLesson'].map(
    (operation): UnprobedResponse => ({
      api: 'v2',
      operation,
      status: 200,
      reason: "the run's AI budget goes to one generation and one refinement",
    }),
  ),
  {
    api: 'v2',
    operation: 'getGenerationJob',
    status: 400,
    reason: 'any string is a job id: no request is malformed',
  },
  {
    api: 'v2',
    operation: 'assignUserToCourse',
    status: 422,
    reason: 'needs a user who cannot be assigned (banned), which the run would have to make first',
  },
  {
    api: 'v2',
    operation: 'banUser',
    status: 422,
    reason: 'needs the v2 id of an expert; the expert is configured by v1 id (--expert-user)',
  },
  {
    api: 'v1',
    operation: 'listUserAssignments',
    status: 400,
    reason: 'a user id is any string: no request is malformed',
  },
];

export function unprobedResponse(
  api: 'v1' | 'v2',
  operationId: string,
  op: Record<string, unknown>,
  status: number,
): string | undefined {
  return UNPROBED_RESPONSES.find(
    (u) =>
      u.api === api &&
      u.status === status &&
      (typeof u.operation === 'string' ? u.operation === operationId : u.operation(op)),
  )?.reason;
}
