// The demo seed (docs/mock.md): tenant `demo`, built through the domain's own rules so that it is
// in a state the platform could reach. Deterministic: no randomness, fixed times relative to START.
import { createHash } from 'node:crypto';
import { assign, assignToGroup, finishCourse, setProgress, startCourse } from '../domain/assignments.ts';
import { upsertAttributes } from '../domain/attributes.ts';
import { SITE_KEY } from '../domain/audit.ts';
import { DAY } from '../domain/clock.ts';
import { structure } from '../domain/course-structure.ts';
import { publishCourse } from '../domain/courses.ts';
import { addMember, createGroup } from '../domain/groups.ts';
import { hashKey, KEY_PREFIX } from '../domain/mcp-keys.ts';
import type { Course, McpKey, TenantData } from '../domain/model.ts';
import type { Platform } from '../domain/platform.ts';
import { TenantState } from '../domain/tenant-state.ts';
import { createUser } from '../domain/users.ts';

/** 2026-01-01T00:00:00Z: the virtual time at which a fresh demo platform starts. */
export const START = 1_767_225_600;
export const DEMO_TENANT = 'demo';
export const DEMO_SITE_API_KEY = 'demo_site_key_4f1c9a7e2b6d8053';

/**
 * The demo MCP keys, printed at start. Derived from a fixed string instead of random bytes so that
 * the README's examples work on every machine; keys made through the admin API are random.
 */
export const demoMcpKey = (name: string) =>
  `lmcp_${createHash('sha256').update(`lmskit demo key ${name}`).digest('base64url')}`;
/** The demo keys' records (only their hashes), owned by the user `userOf` gives for each key's API id. */
export function demoKeyRecords(userOf: (apiId: string) => number): McpKey[] {
  return DEMO_KEYS.map((k) => ({
    id: k.id,
    userId: userOf(k.userApiId),
    prefix: KEY_PREFIX,
    hash: hashKey(demoMcpKey(k.name)),
    scopes: [...k.scopes],
    createdAt: START - DAY,
    lastUsedAt: null,
    revokedAt: null,
  }));
}

export const DEMO_KEYS = [
  { id: 'key_demo_read', name: 'read', userApiId: 'ada', scopes: ['read'] },
  { id: 'key_demo_write', name: 'write', userApiId: 'ada', scopes: ['read', 'write'] },
] as const;

/** The demo keys the platform still accepts as seeded (not revoked, not replaced), with their text. */
export function liveDemoKeys(platform: Platform) {
  const demo = platform.tenants.get(DEMO_TENANT);
  return DEMO_KEYS.filter((k) => {
    const record = demo?.mcpKeys.get(k.id);
    return record && !record.revokedAt && record.hash === hashKey(demoMcpKey(k.name));
  }).map((k) => ({ ...k, key: demoMcpKey(k.name) }));
}

const PEOPLE: [apiId: string, name: string, role: string][] = [
  ['ada', 'Ada Admin', 'admin'],
  ['max', 'Max Manager', 'manager'],
  ['mia', 'Mia Manager', 'manager'],
  ['aria', 'Aria Author', 'author'],
  ['otto', 'Otto Author', 'author'],
  ['lena', 'Lena Learner', 'learner'],
  ['liam', 'Liam Learner', 'learner'],
  ['lucia', 'Lucia Learner', 'learner'],
  ['leo', 'Leo Learner', 'learner'],
  ['lara', 'Lara Learner', 'learner'],
  ['luca', 'Luca Learner', 'learner'],
  ['lily', 'Lily Learner', 'learner'],
  ['lars', 'Lars Learner', 'learner'],
];

const TOPICS = [
  'Workplace safety',
  'Data protection basics',
  'Information security',
  'Anti-bribery and corruption',
  'Code of conduct',
  'Customer service essentials',
  'Negotiation skills',
  'Time management',
  'Giving feedback',
  'Leading remote teams',
  'Project management fundamentals',
  'Agile in practice',
  'Public speaking',
  'Business writing',
  'First aid at work',
  'Fire safety',
  'Diversity and inclusion',
  'Conflict resolution',
  'Sales pipeline management',
  'Product knowledge: platform',
  'Onboarding: your first week',
  'Onboarding: tools and accounts',
  'Onboarding: company culture',
  'Excel for analysts',
  'SQL basics',
  'Python for beginners',
  'Cloud fundamentals',
  'Secure coding',
  'Code review practice',
  'Incident response',
  'Accessibility basics',
  'Design thinking',
  'Financial literacy',
  'Budgeting for managers',
  'Hiring and interviewing',
  'Performance reviews',
  'Coaching conversations',
  'Stress management',
  'Ergonomics',
  'Sustainability at work',
  'Export control',
  'Competition law',
  'Phishing awareness',
  'Password hygiene',
  'GDPR for marketing',
  'Customer onboarding',
  'Support ticket triage',
  'Writing documentation',
];

export function demoTenant(): TenantData {
  const t = TenantState.empty(DEMO_TENANT, 'Demo Academy', DEMO_SITE_API_KEY);
  // The demo's choice (openapi/admin ResetRequest `seed`): MCP on, so the keys printed at start work;
  // every other tenant starts at the seed's default, `none` (seed 000, Tenant restrictions (licence)).
  t.mcpAccess = 'full';
  let at = START - 21 * DAY;
  const tick = () => (at += 60);

  // Attribute definitions of every type (seed 001: 1 text … 8 number), for users and for groups.
  upsertAttributes(t, 'user', [
    {
      name: 'Employee number',
      type: 1,
      apiId: 'employee_number',
      position: 1,
      isRequired: false,
      isVisible: true,
      isEditable: false,
    },
    {
      name: 'Hire date',
      type: 2,
      apiId: 'hire_date',
      position: 2,
      isRequired: false,
      isVisible: true,
      isEditable: false,
    },
    {
      name: 'Department',
      type: 3,
      apiId: 'department',
      position: 3,
      isRequired: false,
      isVisible: true,
      isEditable: true,
      extraData: [{ value: 'Sales' }, { value: 'Engineering' }, { value: 'People' }],
    },
    {
      name: 'Skills',
      type: 4,
      apiId: 'skills',
      position: 4,
      isRequired: false,
      isVisible: true,
      isEditable: true,
      extraData: [{ value: 'SQL' }, { value: 'Negotiation' }, { value: 'Python' }, { value: 'Coaching' }],
    },
    {
      name: 'Mentor',
      type: 5,
      apiId: 'mentor',
      position: 5,
      isRequired: false,
      isVisible: true,
      isEditable: true,
    },
    {
      name: 'Works remotely',
      type: 6,
      apiId: 'remote',
      position: 6,
      isRequired: false,
      isVisible: true,
      isEditable: true,
    },
    {
      name: 'Profile link',
      type: 7,
      apiId: 'profile_link',
      position: 7,
      isRequired: false,
      isVisible: true,
      isEditable: true,
    },
    {
      name: 'Years of experience',
      type: 8,
      apiId: 'experience_years',
      position: 8,
      isRequired: false,
      isVisible: true,
      isEditable: true,
    },
  ]);
  upsertAttributes(t, 'group', [
    {
      name: 'region',
      type: 3,
      apiId: 'region',
      position: 1,
      isRequired: false,
      isVisible: true,
      extraData: [{ value: 'EMEA' }, { value: 'Americas' }, { value: 'APAC' }],
    },
    { name: 'cost centre', type: 1, apiId: 'cost_centre', position: 2, isRequired: false, isVisible: true },
  ]);

  const users = PEOPLE.map(([apiId, name, role], i) =>
    createUser(
      t,
      SITE_KEY,
      {
        id: apiId,
        name,
        email: `${apiId}@demo.example`,
        password: `demo-password-${apiId}`,
        roleAlias: role,
        occupation: role === 'learner' ? 'Associate' : role.charAt(0).toUpperCase() + role.slice(1),
        location: i % 2 ? 'Berlin' : 'Lisbon',
        timezone: i % 2 ? 'Europe/Berlin' : 'Europe/Lisbon',
        attributes: {
          employee_number: `E-${1000 + i}`,
          hire_date: `202${i % 5}-0${(i % 9) + 1}-15`,
          department: ['Sales', 'Engineering', 'People'][i % 3] ?? 'Sales',
          skills: i % 2 ? ['SQL', 'Python'] : ['Negotiation'],
          remote: i % 3 === 0,
          experience_years: i + 1,
          ...(role === 'learner'
            ? { mentor: 'max', profile_link: `https://people.demo.example/${apiId}` }
            : {}),
        },
      },
      tick(),
    ),
  );
  const user = (apiId: string) => users.find((u) => u.apiId === apiId)?.id ?? 0;

  // Groups in a small hierarchy: Company → Sales, Engineering → Backend.
  const company = createGroup(
    t,
    SITE_KEY,
    { name: 'Company', description: 'Everyone', attributes: { region: 'EMEA', 'cost centre': 'CC-100' } },
    tick(),
  );
  const sales = createGroup(
    t,
    SITE_KEY,
    { name: 'Sales', parentId: company.id, description: 'Sales team', attributes: { region: 'Americas' } },
    tick(),
  );
  const engineering = createGroup(
    t,
    SITE_KEY,
    { name: 'Engineering', parentId: company.id, description: 'Engineering team' },
    tick(),
  );
  const backend = createGroup(
    t,
    SITE_KEY,
    { name: 'Backend', parentId: engineering.id, description: 'Backend engineers' },
    tick(),
  );
  for (const u of users) addMember(t, company.id, u.id, tick());
  for (const apiId of ['max', 'lena', 'liam', 'lucia']) addMember(t, sales.id, user(apiId), tick());
  for (const apiId of ['mia', 'leo', 'lara', 'luca', 'lily'])
    addMember(t, engineering.id, user(apiId), tick());
  for (const apiId of ['luca', 'lily']) addMember(t, backend.id, user(apiId), tick());

  // 48 courses (more than two pages of 20), authored by Aria and Otto; the last three are drafts.
  const courses = TOPICS.map((topic, i) => {
    const created = tick();
    const course: Course = {
      id: t.nextId('course'),
      name: topic,
      annotation: `A short course on ${topic.toLowerCase()}.`,
      description: `${topic}: what it is, why it matters, and how to apply it at work.`,
      isDraft: true,
      createdAt: created,
      updatedAt: created,
      publishedAt: null,
      ownerId: user(i % 2 ? 'otto' : 'aria'),
      sharedWith: i % 5 === 0 ? [user('otto'), user('aria')] : [],
      attachedFiles:
        i % 4 === 0
          ? [
              {
                name: `${topic} handout.pdf`,
                size: 48_213 + i,
                url: `https://files.demo.example/courses/${i + 1}/handout.pdf`,
                mime: 'application/pdf',
              },
            ]
          : [],
      settings: {
        sequential: i % 2 === 0,
        hasCertificate: i % 3 === 0,
        certificateValidDays: i % 6 === 0 ? 365 : null,
        passingScore: 60,
      },
      structure: structure(t, topic, 2 + (i % 3), i === TOPICS.length - 1 ? 'multiple' : 'single'),
      experts: [],
    };
    t.addCourse(course);
    if (i < TOPICS.length - 3) publishCourse(t, SITE_KEY, course.id, tick());
    return course;
  });
  const course = (i: number) => courses[i]?.id ?? 0;

  // Otto reviews homework and classwork on two courses: banning him answers 422 (seed 001).
  courses[0]?.experts.push({ userId: user('otto'), homeworks: 3, classworks: 1 });
  courses[1]?.experts.push({ userId: user('otto'), homeworks: 0, classworks: 2 });

  // A course chain (learning path) owned by Ada, and one owned by Max.
  for (const [name, owner, courseIds] of [
    ['Onboarding path', 'ada', [course(20), course(21), course(22)]],
    ['Security path', 'max', [course(2), course(42), course(43)]],
  ] as const) {
    const chain = { id: t.nextId('chain'), name, ownerId: user(owner), courseIds: [...courseIds] };
    t.chains.set(chain.id, chain);
  }

  // Assignments in every state: not started, in progress, finished (with certificates), overdue.
  assignToGroup(t, company.id, course(0), { deadlineAt: START + 30 * DAY }, tick());
  assignToGroup(t, sales.id, course(6), { deadlineAt: START - 2 * DAY }, tick());
  for (const [apiId, c, deadline] of [
    ['lena', 2, START + 14 * DAY],
    ['liam', 2, START - 3 * DAY],
    ['lucia', 3, null],
    ['leo', 24, START + 7 * DAY],
    ['lara', 25, null],
    ['luca', 27, START - 1 * DAY],
  ] as const) {
    assign(t, user(apiId), course(c), { deadlineAt: deadline }, tick());
  }
  for (const apiId of ['lena', 'liam', 'lucia', 'leo']) startCourse(t, user(apiId), course(0), tick());
  setProgress(t, user('lena'), course(2), 40, tick());
  setProgress(t, user('leo'), course(24), 70, tick());
  for (const [apiId, c, result] of [
    ['lena', 0, 92],
    ['liam', 0, 75],
    ['lucia', 3, 88],
    ['lara', 25, 64],
    ['max', 0, 100],
    ['lena', 6, 81],
  ] as const) {
    finishCourse(t, SITE_KEY, user(apiId), course(c), result, tick());
  }

  const data = t.toData();
  data.mcpKeys = demoKeyRecords(user);
  return data;
}

/** Tenant `demo` with its administrator only (`POST /__admin/reset {"seed": "empty"}`). */
export function emptyTenant(): TenantData {
  const t = TenantState.empty(DEMO_TENANT, 'Demo Academy', DEMO_SITE_API_KEY);
  createUser(
    t,
    SITE_KEY,
    {
      id: 'ada',
      name: 'Ada Admin',
      email: 'ada@demo.example',
      password: 'demo-password-ada',
      roleAlias: 'admin',
    },
    START,
  );
  return t.toData();
}
