// A course's structure as the seeds and fixtures make it: a few lessons on the topic, then a question.
// In the domain since the fixtures' build (fixture-build.ts), which the `loadFixtures` command runs,
// needs it, and the domain imports nothing of the seeds.
import type { Course, CourseElement } from './model.ts';
import type { TenantState } from './tenant-state.ts';

/**
 * Lessons, then one question on the topic: single-choice, or in one course multiple-choice (two
 * correct answers), so that regenerate_question's refusal of other types (seed 000: "single-choice
 * questions only") can be seen. The demo seed's courses (../seed/demo.ts) and fixtures'
 * (fixture-build.ts) are made by it.
 */
export function structure(
  t: TenantState,
  topic: string,
  lessons: number,
  questionType: 'single' | 'multiple' = 'single',
): Course['structure'] {
  const elements: CourseElement[] = [];
  for (let i = 1; i <= lessons; i++) {
    elements.push({
      id: t.nextId('element'),
      type: 'lesson',
      title: `${topic}: part ${i}`,
      content: `What to know about ${topic.toLowerCase()}, part ${i}.`,
    });
  }
  elements.push({
    id: t.nextId('element'),
    type: 'question',
    title:
      questionType === 'single' ? `Check: ${topic}` : `Check: ${topic} (choose every answer that applies)`,
    questionType,
    options: [
      { text: 'The approach the course recommends', isCorrect: true },
      questionType === 'single'
        ? { text: 'Whatever is fastest', isCorrect: false }
        : { text: 'Asking a colleague to review it', isCorrect: true },
      { text: 'Ask nobody', isCorrect: false },
    ],
  });
  const transitions = elements.slice(1).map((e, i) => ({ from: elements[i]?.id ?? e.id, to: e.id }));
  return { elements, transitions };
}
