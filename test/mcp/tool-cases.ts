// Seed 000 "Endpoints": one valid and one invalid call of each tool of mcp-schema/,
// run in this order on a fresh demo state by tools-stdio.test.ts and tools-http.test.ts. Later cases
// use what earlier ones made (the upload's sessionId, the generation's jobId).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import type { ToolName } from '../../generated/tools/index.ts';
import { ALL_TOOLS, callFails, callOk, journalMark, START } from './setup.ts';

export interface CaseContext {
  /** Absolute path of a small PDF with text. */
  pdfPath: string;
  sessionId?: string;
  jobId?: string;
}

export interface ToolCase {
  valid: (ctx: CaseContext) => Record<string, unknown>;
  /** Checks the structuredContent of the valid call (already checked against the outputSchema). */
  check: (out: any, ctx: CaseContext) => void;
  invalid: Record<string, unknown>;
  /** What the refusal must say. */
  problem: RegExp;
}

const DAY = 86_400;

/** Keyed by the tool's name: a new tool file is a compile error here until it has its case. */
export const TOOL_CASES: Record<ToolName, ToolCase> = {
  // Read tools (seed 000, "Read tools").
  find_user: {
    valid: () => ({ query: 'LENA' }),
    check: (out) => expect(out.users.map((u: any) => u.id)).toEqual([6]),
    invalid: { query: 'a', limit: 99 },
    problem: /limit must be at most 50/,
  },
  get_user: {
    valid: () => ({ userId: 6 }),
    check: (out) => {
      expect(out.email).toBe('lena@demo.example');
      expect(out.groups.map((g: any) => g.id)).toContain(2);
    },
    invalid: {},
    problem: /userId is required/,
  },
  find_course: {
    valid: () => ({ query: 'safety', limit: 1 }),
    check: (out) => {
      expect(out.courses).toHaveLength(1);
      expect(out.courses[0].name).toMatch(/safety/i);
    },
    invalid: { limit: 10 },
    problem: /query is required/,
  },
  get_course: {
    valid: () => ({ courseId: 1 }),
    check: (out) => {
      expect(out.name).toBe('Workplace safety');
      expect(out.structure.elements.map((e: any) => e.type)).toEqual(['lesson', 'lesson', 'question']);
    },
    invalid: { courseId: 'one' },
    problem: /courseId must be integer/,
  },
  list_assignments: {
    valid: () => ({ groupId: 2 }),
    check: (out) => {
      expect(out.assignments.length).toBeGreaterThan(0);
      expect(out.totalCount).toBe(out.assignments.length);
    },
    invalid: { userId: 6, groupId: 1 },
    problem: /exactly one of userId or groupId/,
  },
  list_my_assignments: {
    valid: () => ({}),
    check: (out) => {
      expect(out.assignments.length).toBeGreaterThan(0);
      for (const a of out.assignments) expect(a.userId).toBe(1);
    },
    invalid: { userId: 1 },
    problem: /userId is not a parameter/,
  },
  get_compliance_status: {
    valid: () => ({ courseId: 1, groupId: 1 }),
    check: (out) => {
      expect(out.courseId).toBe(1);
      expect(out.assigned).toBe(13);
    },
    invalid: { groupId: 1 },
    problem: /courseId is required/,
  },
  list_certificates: {
    valid: () => ({ userId: 6 }),
    check: (out) => expect(out.certificates.length).toBeGreaterThan(0),
    invalid: { userId: 0 },
    problem: /userId must be at least 1/,
  },
  get_statistics: {
    valid: () => ({ scope: 'overview' }),
    check: (out) => expect(out.scope).toBe('overview'),
    invalid: { scope: 'everything' },
    problem: /scope must be one of overview, publishing, courseCreation, activity, insights, tags/,
  },
  get_leaderboard: {
    valid: () => ({ limit: 3 }),
    check: (out) => {
      expect(out.leaders.length).toBeGreaterThan(0);
      expect(out.leaders.length).toBeLessThanOrEqual(3);
    },
    invalid: { limit: 51 },
    problem: /limit must be at most 50/,
  },
  get_audit_log: {
    valid: () => ({ limit: 5, from: '2025-01-01' }),
    check: (out) => {
      expect(out.limit).toBe(5);
      expect(out.entries.length).toBeLessThanOrEqual(5);
      expect(out.totalCount).toBeGreaterThan(5);
    },
    invalid: { limit: 251 },
    problem: /limit must be at most 250/,
  },
  // Write tools (seed 000, "Write tools").
  assign_training: {
    valid: () => ({ courseId: 5, userId: 7, deadlineAt: START + 10 * DAY }),
    check: (out) => {
      expect(out.assignment).toMatchObject({ courseId: 5, userId: 7, deadlineAt: START + 10 * DAY });
    },
    invalid: { courseId: 5 },
    problem: /userId is required/,
  },
  bulk_assign: {
    valid: () => ({ groupId: 3, courseIds: [10, 11] }),
    check: (out) => {
      expect(out.groupId).toBe(3);
      expect(out.results.map((r: any) => r.courseId)).toEqual([10, 11]);
    },
    invalid: { groupId: 3, courseIds: [] },
    problem: /courseIds must NOT have fewer than 1 items/,
  },
  assign_chain: {
    valid: () => ({ chainId: 1, userIds: [7] }),
    check: (out) => expect(out).toMatchObject({ chainId: 1, users: [7] }),
    invalid: { userIds: [7] },
    problem: /chainId is required/,
  },
  ban_user: {
    valid: () => ({ userId: 13 }),
    check: (out) => expect(out).toEqual({ userId: 13, status: 'banned' }),
    invalid: { userId: -1 },
    problem: /userId must be at least 1/,
  },
  unban_user: {
    valid: () => ({ userId: 13 }),
    check: (out) => expect(out).toEqual({ userId: 13, status: 'active' }),
    invalid: {},
    problem: /userId is required/,
  },
  change_user_email: {
    valid: () => ({ userId: 12, email: 'lily.new@demo.example' }),
    check: (out) => expect(out).toMatchObject({ userId: 12, email: 'lily.new@demo.example' }),
    invalid: { userId: 12 },
    problem: /email is required/,
  },
  clone_course: {
    valid: () => ({ courseId: 3 }),
    check: (out) => {
      expect(out.sourceCourseId).toBe(3);
      expect(out.id).toBeGreaterThan(48);
    },
    invalid: { courseId: 3, name: 'Copy' },
    problem: /name is not a parameter/,
  },
  // AI tools (seed 000, "AI tools"), in the order of the documented flow.
  upload_source_material: {
    valid: (ctx) => ({ filePath: ctx.pdfPath }),
    check: (out, ctx) => {
      expect(out.chunkCount).toBeGreaterThanOrEqual(1);
      expect(out.filename).toBe('handout.pdf');
      ctx.sessionId = out.sessionId;
    },
    invalid: { filePath: 'handout.pdf' },
    problem: /filePath/,
  },
  create_course_from_files: {
    valid: (ctx) => ({ prompt: 'A course for new lab staff', sessionId: ctx.sessionId }),
    check: (out, ctx) => {
      expect(out.status).toBe('queued');
      ctx.jobId = out.jobId;
    },
    invalid: { prompt: 'A course for new lab staff' },
    problem: /sessionId is required/,
  },
  get_course_generation_status: {
    valid: (ctx) => ({ jobId: ctx.jobId }),
    check: (out) => expect(out.status).toBe('queued'),
    invalid: {},
    problem: /jobId is required/,
  },
  create_course_from_prompt: {
    valid: () => ({ prompt: 'Ladder safety for warehouse staff' }),
    check: (out) => {
      expect(out.status).toBe('queued');
      expect(out.jobId).toEqual(expect.any(String));
    },
    invalid: { prompt: 'Ladder safety', moduleCount: 21 },
    problem: /moduleCount must be at most 20/,
  },
  refine_course: {
    valid: () => ({ courseId: 1, feedback: 'Add a section on ladders' }),
    check: (out) => {
      expect(out.courseId).toBe(1);
      expect(out.elementsAdded).toBeGreaterThanOrEqual(1);
    },
    invalid: { courseId: 1 },
    problem: /feedback is required/,
  },
  regenerate_question: {
    valid: () => ({ questionId: 3 }),
    check: (out) => {
      expect(out.questionId).toBe(3);
      expect(out.options.length).toBeGreaterThan(1);
    },
    invalid: { questionId: 3, feedback: 5 },
    problem: /feedback must be string/,
  },
  regenerate_lesson: {
    valid: () => ({ lessonId: 1 }),
    check: (out) => {
      expect(out.lessonId).toBe(1);
      expect(out.brief.title).toEqual(expect.any(String));
    },
    invalid: { lessonId: 1, language: 'de' },
    problem: /language is not a parameter/,
  },
};

/**
 * Registers the table's tests: each tool once with valid arguments (structuredContent present and
 * valid against its outputSchema — the SDK client checks it too, since tools/list was read first),
 * once with invalid ones (isError, a sentence naming the problem, and no call of the tool's backend
 * operation: arguments are checked before anything is sent).
 */
export function toolCaseTests(session: () => { client: Client; mockUrl: string; ctx: CaseContext }): void {
  it('the table calls every tool of mcp-schema/ (seed 000, What the service does 5)', () => {
    expect(Object.keys(TOOL_CASES).sort()).toEqual(ALL_TOOLS);
  });
  for (const [name, c] of Object.entries(TOOL_CASES)) {
    it(`${name}: valid arguments give structuredContent matching its outputSchema (seed 000 "Endpoints")`, async () => {
      const { client, ctx } = session();
      const out = await callOk(client, name, c.valid(ctx));
      c.check(out, ctx);
    });
    it(`${name}: invalid arguments give isError with a sentence naming the problem, nothing sent (seed 000, Errors: readable strings)`, async () => {
      const { client, mockUrl } = session();
      const mark = await journalMark(mockUrl);
      const text = await callFails(client, name, c.invalid);
      expect(text).toContain(`Invalid arguments for ${name}:`);
      expect(text).toMatch(c.problem);
      const sent = (await mark.since()).filter(
        // The tool server's own requests are journalled as API `mcp` (docs/console.md, Requests).
        (e) => e.api === 'mcp' && e.path !== '/api/v2/mcp/capabilities',
      );
      expect(sent).toEqual([]);
    });
  }
}
