// Departures of the webhook events (seed 001, Events; conformance/checks/v1/webhooks.ts and the
// events creating a user records, in conformance/checks/v1/users-create.ts): an event not recorded,
// bodies without what the seed lists, types in dot notation, names read case-insensitively, events
// kept past 30 days.
import type { Departure, Json } from './kit.ts';
import { fake, onAnswer, onRequest, V1, V1_LAST_EVENT } from './kit.ts';

export const V1_WEBHOOK_DEPARTURES: Departure[] = [
  {
    name: 'user.created not recorded',
    seed: '001 Events: "User/Created | user.created | a user is created"',
    catches: 'v1.webhooks.user-created',
    rewrites: () => [
      onAnswer('GET', `${V1}/webhook/user.created/last`, (b) => {
        b.body.user.email = 'someone-else@example.invalid';
      }),
    ],
  },
  {
    name: 'group.user.created not emitted',
    seed: '001 Events: "Group/User/Created | group.user.created | a user is added to a group"',
    catches: 'v1.webhooks.group-user-created',
    rewrites: () => [
      fake(
        'GET',
        `${V1}/webhook/group.user.created/last`,
        () => true,
        () => ({ status: 404, body: { status: 404, message: 'No event' } }),
      ),
    ],
  },
  {
    name: 'user.created without userAttributes',
    seed: '001 Events: "User/Created | user.created | ... userAttributes (array of {apiId, name, type, value})"',
    catches: 'v1.webhooks.user-created.body',
    rewrites: () => [
      onAnswer(
        'GET',
        `${V1}/webhook/user.created/last`,
        (b: Json) => void delete b.body?.user?.userAttributes,
      ),
    ],
  },
  {
    name: 'event types in dot notation',
    seed: '001 Events: "Envelope: occuredAt (integer), type (string, slash form)"; "Group/User/Created | group.user.created"',
    catches: 'v1.webhooks.group-user-created.body',
    alsoFails: ['v1.webhooks.user-created.body'],
    rewrites: () => [
      onAnswer('GET', V1_LAST_EVENT, (b: Json, req) => {
        b.type = req.path.split('/').at(-2);
      }),
    ],
  },
  {
    name: 'case-insensitive events',
    seed: '001 Webhook last event: "event is a case-sensitive dot-notation type"',
    catches: 'v1.webhooks.case-sensitive',
    rewrites: () => [
      onRequest('GET', V1_LAST_EVENT, (req) => {
        req.path = req.path.replace(
          /\/webhook\/([^/]+)\/last$/,
          (_m, e: string) => `/webhook/${e.toLowerCase()}/last`,
        );
      }),
    ],
  },
  {
    name: 'events kept past 30 days',
    seed: '001 Webhook last event: "Only events of the last 30 days are returned."; Limits: "Last-event retention | 30 days"',
    catches: 'v1.webhooks.retention',
    rewrites: () => [
      onAnswer('GET', `${V1}/webhook/course.published/last`, (b: Json) => {
        b.occuredAt -= 40 * 86_400;
      }),
    ],
  },
  {
    name: 'course.finished without the course',
    seed: '001 Events: "(course finished) | course.finished | a user finishes a course | user, course, resultValue (0-100)"',
    catches: 'v1.webhooks.course-finished.body',
    rewrites: () => [
      onAnswer('GET', `${V1}/webhook/course.finished/last`, (b: Json) => void delete b.body?.course),
    ],
  },
  {
    name: 'course.published refused as an unknown event',
    seed: '001 Events: "The dot-notation name course.published is also used."',
    catches: 'v1.webhooks.course-published',
    rewrites: () => [
      fake(
        'GET',
        `${V1}/webhook/course.published/last`,
        () => true,
        () => ({
          status: 400,
          body: { status: 400, message: 'Unknown event', errors: { event: ['unknown event type'] } },
        }),
      ),
    ],
  },
];
