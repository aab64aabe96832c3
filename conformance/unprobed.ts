// The documented responses the suite does not provoke on purpose, each with the reason; a test fails
// when a response of the contracts is neither provoked nor here. (Rules no check can judge say why in
// the rule catalogue, docs/requirements/rules.yaml.)

interface UnprobedResponse {
  api: 'v1' | 'v2';
  /** An operationId, or a test on the operation's contract. */
  operation: string | ((op: Record<string, unknown>) => boolean);
  status: number;
  reason: string;
}

/** Documented responses (operation × status) no check provokes. */
export const UNPROBED_RESPONSES: UnprobedResponse[] = [
  {
    api: 'v2',
    operation: (op) =>
      op['x-ai-quota'] !== true && op.operationId !== 'getCapabilities' && op.operationId !== 'searchCourses',
    status: 429,
    reason:
      "the limit probes (--probe-limits) meet the per-key rate limit with getCapabilities (and through the tool server with find_course) and the AI quota with the AI operations; any other operation's 429 is the same limit",
  },
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
    operation: 'listMyAssignments',
    status: 403,
    reason:
      'list_my_assignments needs no permission (any role): only a tenant without MCP refuses it, and the licence checks probe that tenant with other operations',
  },
  ...(
    [
      ['refineCourse', 404],
      ['regenerateQuestion', 400],
      ['regenerateQuestion', 404],
      ['regenerateLesson', 400],
      ['regenerateLesson', 404],
    ] as const
  ).map(
    ([operation, status]): UnprobedResponse => ({
      api: 'v2',
      operation,
      status,
      reason:
        "a refused AI call may count against the day's AI quota (5 per key): the suite sends the AI operations only the refusals its rules need",
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
