// What the tool files tell an agent about a tool's effect and its cost agrees with the seed:
// the annotations of the AI refinement tools (seed 000, AI tools: refine_course "append-only",
// regenerate_lesson "existing pages are not touched") and which tools the AI quota counts
// (seed 000, Limits: "AI tools (generation and refinement, shared)").
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../lib/tool-schemas.ts';

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
