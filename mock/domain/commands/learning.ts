// What learners and authors do in the web interface, driven through the admin API: progress and
// results of an assignment, publishing a course.
import { finishCourse, setProgress, startCourse } from '../assignments.ts';
import type { Actor } from '../audit.ts';
import { publishCourse } from '../courses.ts';
import type { CommandPlatform } from './command.ts';

const ADMIN: Actor = { userId: null };

export const LEARNING_COMMANDS = {
  recordProgress: (
    p: CommandPlatform,
    a: {
      tenantId: string;
      userId: number;
      courseId: number;
      action: 'start' | 'progress' | 'finish';
      progressValue?: number;
      resultValue?: number;
    },
  ) => {
    const t = p.tenant(a.tenantId);
    if (a.action === 'start') return startCourse(t, a.userId, a.courseId, p.now());
    if (a.action === 'progress') return setProgress(t, a.userId, a.courseId, a.progressValue ?? 0, p.now());
    return finishCourse(t, ADMIN, a.userId, a.courseId, a.resultValue ?? 100, p.now());
  },

  publishCourse: (p: CommandPlatform, a: { tenantId: string; courseId: number }) =>
    publishCourse(p.tenant(a.tenantId), ADMIN, a.courseId, p.now()),
};
