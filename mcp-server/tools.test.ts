// bulk_assign, the tool with one backend call per item (tools.ts, mcp-schema/bulk_assign.json): every
// course is tried and each one's outcome reported — assigned, refused with why, or skipped after a
// refusal that every call meets — and the result holds to the tool's output schema.
import { describe, expect, it } from 'vitest';
import { createToolAjv, loadTools } from '../lib/tool-schemas.ts';
import type { Backend, BackendAnswer, BackendRequest } from './backend.ts';
import { ToolRunner } from './tools.ts';

const runner = new ToolRunner();
const bulk = runner.tools.get('bulk_assign');
if (!bulk) throw new Error('no bulk_assign');
const output = createToolAjv().compile(
  loadTools().find((t) => t.name === 'bulk_assign')?.outputSchema as object,
);

/** A backend answering each course's POST from `answers` (by course id), recording the requests. */
function backendOf(answers: Record<number, BackendAnswer>) {
  const seen: BackendRequest[] = [];
  const backend = {
    request: async (req: BackendRequest) => {
      seen.push(req);
      const courseId = Number(/\/courses\/(\d+)\/assignments/.exec(req.path)?.[1]);
      return (
        answers[courseId] ?? {
          status: 200,
          body: {
            courseId,
            groups: [{ id: 3, name: 'Engineering', usersCount: 5 }],
            usersAssigned: 5,
            bannedSkipped: 0,
          },
          retries: 0,
        }
      );
    },
  } as unknown as Backend;
  return { backend, seen };
}
const refusal = (status: number, code: string, error: string): BackendAnswer => ({
  status,
  body: { error, code },
  retries: 0,
});
const notFound = (id: number) => refusal(404, 'NOT_FOUND', `course ${id} not found`);

describe('bulk_assign reports every course', () => {
  it('all assigned: one outcome per course, in order, and nothing else said', async () => {
    const { backend } = backendOf({});
    const { result } = await runner.call(bulk, { groupId: 3, courseIds: [10, 11] }, backend);
    expect(result.isError).toBeUndefined();
    expect(result.content).toHaveLength(1);
    const out = result.structuredContent as { results: { courseId: number; outcome: string }[] };
    expect(out.results.map((r) => [r.courseId, r.outcome])).toEqual([
      [10, 'assigned'],
      [11, 'assigned'],
    ]);
    expect(output(out)).toBe(true);
  });

  it('a refused course does not stop the others: assigned, refused with why, assigned', async () => {
    const { backend, seen } = backendOf({ 99: notFound(99) });
    const { result } = await runner.call(bulk, { groupId: 3, courseIds: [10, 99, 11] }, backend);
    expect(seen.map((r) => r.path)).toEqual([
      '/courses/10/assignments',
      '/courses/99/assignments',
      '/courses/11/assignments',
    ]);
    // Something was assigned: a result, not an error, whose sentence names what was not.
    expect(result.isError).toBeUndefined();
    const out = result.structuredContent as { results: Record<string, unknown>[] };
    expect(output(out)).toBe(true);
    expect(out.results[1]).toEqual({
      courseId: 99,
      outcome: 'refused',
      error: { status: 404, code: 'NOT_FOUND', message: expect.stringContaining('course 99 not found') },
    });
    expect(out.results.map((r) => r.outcome)).toEqual(['assigned', 'refused', 'assigned']);
    expect(result.content?.[1]).toEqual({
      type: 'text',
      text: expect.stringMatching(/^Assigned 2 of 3 courses\. Course 99 was refused: Not found: course 99/),
    });
  });

  it('none assigned: an error result (isError) with each course’s reason, the outcomes still given', async () => {
    const { backend } = backendOf({ 98: notFound(98), 99: notFound(99) });
    const { result } = await runner.call(bulk, { groupId: 3, courseIds: [98, 99] }, backend);
    expect(result.isError).toBe(true);
    expect(result.content?.[0]).toMatchObject({
      text: expect.stringMatching(/^Assigned 0 of 2 courses\. Course 98 .* Course 99 was refused/),
    });
    expect(output(result.structuredContent)).toBe(true);
  });

  it('a refusal every call meets (the key’s scope) is not asked again: the rest are skipped, with it', async () => {
    const scope = refusal(403, 'WRITE_SCOPE_REQUIRED', 'This call needs the write scope: read only.');
    const { backend, seen } = backendOf({ 10: scope });
    const { result, status } = await runner.call(bulk, { groupId: 3, courseIds: [10, 11, 12] }, backend);
    expect(seen).toHaveLength(1);
    expect(status).toBe(403);
    expect(result.isError).toBe(true);
    const out = result.structuredContent as { results: { outcome: string; error: { code: string } }[] };
    expect(out.results.map((r) => [r.outcome, r.error.code])).toEqual([
      ['refused', 'WRITE_SCOPE_REQUIRED'],
      ['skipped', 'WRITE_SCOPE_REQUIRED'],
      ['skipped', 'WRITE_SCOPE_REQUIRED'],
    ]);
    expect(result.content?.[0]).toMatchObject({
      text: expect.stringContaining('Courses 11, 12 were not tried: that refusal applies to every call.'),
    });
    expect(output(out)).toBe(true);
  });
});
