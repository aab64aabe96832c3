// A ban revokes course access (seed 000, Write tools: ban_user "revokes login and course access, keeps
// history", unban_user "restores access"; seed 001, States and transitions: a banned user "cannot log
// in"), over HTTP in-process: the admin API's "play a learner" operation (recordProgress) answers its
// documented 422 `USER_BANNED` whichever API banned the learner, and changes nothing — progress,
// certificates, events, webhook deliveries; unbanned, the learner goes on from the progress the ban kept.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  expect((await h.admin('/reset', { method: 'POST', json: { seed: 'demo' } })).status).toBe(200);
});

// Lucia, a learner of the demo: course 1 (with a certificate) started, course 7 (through group Sales,
// with a certificate) not started, course 4 finished with a certificate.
const LUCIA = 'lucia';
const play = (courseId: number, json: Record<string, unknown>) =>
  h.admin(`/tenants/demo/users/${LUCIA}/courses/${courseId}/progress`, { method: 'POST', json });
const luciaId = async () => (await h.admin(`/tenants/demo/users?query=${LUCIA}`)).body.users[0].id as number;
const luciaDetail = async () => (await h.admin(`/tenants/demo/users/${await luciaId()}`)).body;

/** What a refused play must leave as it was. */
async function observed() {
  return {
    snapshot: (await h.admin('/snapshot')).body,
    detail: await luciaDetail(),
    deliveries: (await h.admin('/tenants/demo/webhooks/deliveries')).body,
    lastFinished: (await h.v1('/webhook/course.finished/last')).body,
  };
}

const bans = [
  [
    'v1 blockUser (POST /openapi/v1/users/blocked)',
    async () => h.v1('/users/blocked', { method: 'POST', json: { id: LUCIA } }),
  ],
  [
    'v2 ban_user (POST /api/v2/users/banned)',
    async () => h.v2('/users/banned', { method: 'POST', json: { userId: await luciaId() } }),
  ],
] as const;

describe('a ban revokes course access: the admin API cannot play a banned learner (seed 000, ban_user: "revokes login and course access"; seed 001, User ban state: "user cannot log in"; 000/ban-user)', () => {
  it.each(bans)(
    'banned through %s, start, progress and finish answer 422 USER_BANNED in the admin error shape and change nothing: progress, certificates, events, webhook deliveries',
    async (_, ban) => {
      const receiver = await h.admin('/tenants/demo/webhooks', {
        method: 'POST',
        json: { url: 'http://127.0.0.1:9/hook', secret: 'receiver-secret', events: ['course.finished'] },
      });
      expect(receiver.status).toBe(201);
      expect((await ban()).status).toBe(200);
      expect((await luciaDetail()).banned).toBe(true);
      const before = await observed();
      const certificates = h.platform.tenant('demo').certificates.length;
      const events = h.platform.tenant('demo').events.length;

      for (const [courseId, body] of [
        [7, { action: 'start' }],
        [1, { action: 'progress', progressValue: 80 }],
        [1, { action: 'finish', resultValue: 95 }],
      ] as const) {
        const refused = await play(courseId, body);
        expect(refused.status, `${body.action} on course ${courseId}`).toBe(422);
        expect(refused.body).toEqual({
          error: expect.stringMatching(/lucia\) is banned/),
          code: 'USER_BANNED',
        });
      }

      expect(await observed()).toEqual(before);
      expect(before.deliveries.deliveries).toEqual([]);
      expect(h.platform.tenant('demo').certificates.length).toBe(certificates);
      expect(h.platform.tenant('demo').events.length).toBe(events);
    },
  );

  it('unbanned (unban_user: "restores access"), the learner plays on from the progress recorded before the ban, which the ban kept (000/ban-user.keeps-history, 000/unban-user)', async () => {
    const userId = await luciaId();
    await play(1, { action: 'progress', progressValue: 40 });
    const kept = (await luciaDetail()).assignments;
    expect((await h.v2('/users/banned', { method: 'POST', json: { userId } })).status).toBe(200);
    expect((await play(1, { action: 'progress', progressValue: 60 })).status).toBe(422);
    expect((await h.v2(`/users/banned/${userId}`, { method: 'DELETE' })).status).toBe(200);

    const detail = await luciaDetail();
    expect(detail.banned).toBe(false);
    expect(detail.assignments).toEqual(kept);
    const course1 = kept.find((a: { courseId: number }) => a.courseId === 1);
    expect(course1).toMatchObject({ progressValue: 40, status: 'inProgress' });

    const progressed = await play(1, { action: 'progress', progressValue: 60 });
    expect(progressed).toMatchObject({
      status: 200,
      body: { startedAt: course1.startedAt, progressValue: 60 },
    });
    const finished = await play(1, { action: 'finish', resultValue: 90 });
    expect(finished.body).toMatchObject({ status: 'finished', certificateId: expect.any(Number) });
    expect((await h.v1('/webhook/course.finished/last')).body).toMatchObject({
      body: { user: { id: LUCIA }, course: { id: 1 }, resultValue: 90 },
    });
  });
});
