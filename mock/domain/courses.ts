// Courses (seed 001, "Course"; seed 000, get_course and clone_course): a structure of elements and
// transitions, draft or published. Publishing emits `course.published`; cloning makes a draft copy.
import { type Actor, audit } from './audit.ts';
import { notFound } from './errors.ts';
import { coursePublished } from './events.ts';
import type { Course } from './model.ts';
import type { TenantState } from './tenant-state.ts';

export function courseById(t: TenantState, id: number): Course {
  const course = t.courses.get(id);
  if (!course) throw notFound(`course ${id}`);
  return course;
}

/** Courses in id order, as the v1 list pages them. */
export const coursesInOrder = (t: TenantState) => [...t.courses.values()];

export function publishCourse(t: TenantState, actor: Actor, id: number, at: number): Course {
  const course = courseById(t, id);
  if (!course.isDraft) return course;
  course.isDraft = false;
  course.publishedAt = at;
  course.updatedAt = at;
  coursePublished(t, course, at);
  audit(t, actor, at, 'course.publish', { type: 'course', id: String(id) });
  return course;
}

/** An unpublished copy, owned by the caller, with fresh element ids (seed 000, clone_course). */
export function cloneCourse(t: TenantState, actor: Actor, id: number, ownerId: number, at: number): Course {
  const source = courseById(t, id);
  const ids = new Map<number, number>();
  const elements = source.structure.elements.map((e) => {
    const copy = structuredClone(e);
    copy.id = t.nextId('element');
    ids.set(e.id, copy.id);
    return copy;
  });
  const course: Course = {
    ...structuredClone(source),
    id: t.nextId('course'),
    name: `${source.name} (copy)`,
    isDraft: true,
    createdAt: at,
    updatedAt: at,
    publishedAt: null,
    ownerId,
    sharedWith: [],
    experts: [],
    structure: {
      elements,
      transitions: source.structure.transitions.map((tr) => ({
        from: ids.get(tr.from) ?? tr.from,
        to: ids.get(tr.to) ?? tr.to,
      })),
    },
  };
  t.addCourse(course);
  audit(t, actor, at, 'course.clone', { type: 'course', id: String(course.id) }, { sourceCourseId: id });
  return course;
}

/** Seed 000: `course_edit` on the specific course means owning it, it being shared with you, or administering it. */
export const canEditCourse = (course: Course, userId: number, isAdmin: boolean) =>
  isAdmin || course.ownerId === userId || course.sharedWith.includes(userId);
