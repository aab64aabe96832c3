// What the tool files tell an agent about a tool's effect and its cost agrees with the seed:
// the annotations of the AI refinement tools (seed 000, AI tools: refine_course "append-only",
// regenerate_lesson "existing pages are not touched") and which tools the AI quota counts
// (seed 000, Limits: "AI tools (generation and refinement, shared)").
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../lib/tool-schemas.ts';
import { loadBundle, operations } from '../helpers.ts';

const tools = new Map(loadTools().map((t) => [t.name, t]));
const tool = (name: string) => {
  const found = tools.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe('annotations (seed 000, AI tools)', () => {
  it.each([
    ['refine_course', 'append-only, never modifies or deletes existing content'],
    ['regenerate_lesson', 'existing pages are not touched'],
  ])('%s is not destructive: %s', (name) => {
    expect(tool(name).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('regenerate_question is destructive: new text and options replace the question (old ones kept in the audit log)', () => {
    expect(tool('regenerate_question').annotations.destructiveHint).toBe(true);
  });
});

describe('the AI quota (seed 000, Limits: AI tools, generation and refinement, shared)', () => {
  const v2 = new Map(
    operations(loadBundle('v2')).map((o) => [o.operation.operationId as string, o.operation]),
  );
  const ai = [...tools.values()].filter((t) => t['x-category'].startsWith('ai-'));

  it('counts exactly the generation and refinement tools', () => {
    expect(
      ai
        .filter((t) => t['x-ai-quota'])
        .map((t) => t.name)
        .sort(),
    ).toEqual([
      'create_course_from_files',
      'create_course_from_prompt',
      'refine_course',
      'regenerate_lesson',
      'regenerate_question',
    ]);
  });

  it('marks the AI tools it does not count, and their backend operations, as assumed', () => {
    const uncounted = ai.filter((t) => !t['x-ai-quota']);
    expect(uncounted.map((t) => t.name).sort()).toEqual([
      'get_course_generation_status',
      'upload_source_material',
    ]);
    for (const t of uncounted) {
      expect(t['x-assumed-ai-quota'], t.name).toBe(true);
      for (const call of t['x-backend']) {
        const operation = v2.get(call.operationId);
        expect(operation?.['x-ai-quota'], call.operationId).toBe(false);
        expect(operation?.['x-assumed-ai-quota'], call.operationId).toBe(true);
      }
    }
  });
});
