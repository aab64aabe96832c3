// Groups (seed 001, "Group" and "Groups"): a tree by parentId in which a cycle is refused, attribute
// values keyed by name, and members who receive the group's courses.
import { describe, expect, it } from 'vitest';
import { assignToGroup } from './assignments.ts';
import { upsertAttributes } from './attributes.ts';
import { SITE_KEY } from './audit.ts';
import { DomainError } from './errors.ts';
import { addMember, createGroup, type GroupInput, updateGroup } from './groups.ts';
import type { Group } from './model.ts';
import { TenantState } from './tenant-state.ts';
import { createUser } from './users.ts';

const AT = 1_767_225_600;

function caught(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

/** A chain of groups A → B → C (A is the root). */
function tree() {
  const t = TenantState.empty('t', 'T', 'key');
  const a = createGroup(t, SITE_KEY, { name: 'A' }, AT);
  const b = createGroup(t, SITE_KEY, { name: 'B', parentId: a.id }, AT);
  const c = createGroup(t, SITE_KEY, { name: 'C', parentId: b.id }, AT);
  return { t, a, b, c };
}

const children = (t: TenantState, parent: Group) =>
  [...t.groups.values()].filter((g) => g.parentId === parent.id).map((g) => g.name);

describe('createGroup', () => {
  it('creates a root group with no members and no courses (seed 001, POST /groups: usersCount 0, coursesCount 0)', () => {
    const t = TenantState.empty('t', 'T', 'key');
    const g = createGroup(t, SITE_KEY, { name: 'Company', description: 'Everyone' }, AT);
    expect(g).toMatchObject({
      name: 'Company',
      description: 'Everyone',
      parentId: null,
      memberIds: [],
      courseIds: [],
    });
    expect(t.groups.get(g.id)).toBe(g);
  });

  it('builds a tree by parentId (seed 001, Group: parentId parent group)', () => {
    const { t, a, b, c } = tree();
    expect(children(t, a)).toEqual(['B']);
    expect(children(t, b)).toEqual(['C']);
    expect(c.parentId).toBe(b.id);
  });

  it('refuses an unknown parent with an error on parentId and creates nothing (seed 001, Groups: 400 validation)', () => {
    const { t } = tree();
    const before = JSON.stringify(t.toData());
    const error = caught(() => createGroup(t, SITE_KEY, { name: 'D', parentId: 999 }, AT));
    expect(error.kind).toBe('validation');
    expect(Object.keys(error.fields)).toEqual(['parentId']);
    expect(JSON.stringify(t.toData())).toBe(before);
  });
});

describe('updateGroup: the parent tree', () => {
  it.each<[string, (g: ReturnType<typeof tree>) => [Group, number]]>([
    ['a group as its own parent', ({ a }) => [a, a.id]],
    ['a child as parent of its parent (A parent of B, then B parent of A)', ({ a, b }) => [a, b.id]],
    ['a grandchild as parent of the root', ({ a, c }) => [a, c.id]],
    ['a child as parent of itself further down', ({ b }) => [b, b.id]],
  ])(
    'refuses %s with an error on parentId and changes nothing (seed 001, Groups: parentId; a tree has no cycle)',
    (_, pick) => {
      const g = tree();
      const [group, parentId] = pick(g);
      const before = JSON.stringify(g.t.toData());
      const error = caught(() =>
        updateGroup(g.t, SITE_KEY, group.id, { name: 'Renamed', parentId, description: 'changed' }, AT),
      );
      expect(error.kind).toBe('validation');
      expect(Object.keys(error.fields)).toEqual(['parentId']);
      expect(JSON.stringify(g.t.toData())).toBe(before);
    },
  );

  it('moves a group under another branch when that makes no cycle (seed 001, PATCH /groups: parentId)', () => {
    const { t, a, c } = tree();
    const d = createGroup(t, SITE_KEY, { name: 'D', parentId: a.id }, AT);
    updateGroup(t, SITE_KEY, c.id, { name: 'C', parentId: d.id }, AT);
    expect(c.parentId).toBe(d.id);
    expect(children(t, d)).toEqual(['C']);
  });

  it('detaches a group from its parent with parentId null (seed 001, PATCH /groups: null removes the parent)', () => {
    const { t, b, c } = tree();
    updateGroup(t, SITE_KEY, c.id, { name: 'C', parentId: null }, AT);
    expect(c.parentId).toBeNull();
    expect(children(t, b)).toEqual([]);
  });

  it('keeps the parent when parentId is left out (seed 001, PATCH /groups: parentId optional)', () => {
    const { t, b, c } = tree();
    updateGroup(t, SITE_KEY, c.id, { name: 'Renamed C' }, AT);
    expect(c.parentId).toBe(b.id);
    expect(c.name).toBe('Renamed C');
  });

  it('lets a detached subtree be re-attached, even below its former child (seed 001, PATCH /groups: parentId)', () => {
    const { t, a, b } = tree();
    updateGroup(t, SITE_KEY, b.id, { name: 'B', parentId: null }, AT);
    // A no longer has B below it, so A may now go under B.
    updateGroup(t, SITE_KEY, a.id, { name: 'A', parentId: b.id }, AT);
    expect(a.parentId).toBe(b.id);
    expect(b.parentId).toBeNull();
  });

  it('answers not_found for an unknown group (seed 001, Groups: 404 group not found)', () => {
    const { t } = tree();
    expect(caught(() => updateGroup(t, SITE_KEY, 999, { name: 'X' }, AT)).kind).toBe('not_found');
  });
});

describe('group attributes', () => {
  const withRegion = () => {
    const g = tree();
    upsertAttributes(g.t, 'group', [
      {
        name: 'region',
        apiId: 'region_api',
        type: 3,
        position: 1,
        isRequired: false,
        isVisible: true,
        extraData: [{ value: 'EMEA' }, { value: 'APAC' }],
      },
    ]);
    return g;
  };

  it.each<[string, GroupInput['attributes'], string[]]>([
    ['a known option keyed by name', { region: 'EMEA' }, []],
    ['an option that does not exist', { region: 'Mars' }, ['attributes.region']],
    ['a value keyed by apiId instead of name', { region_api: 'EMEA' }, ['attributes.region_api']],
  ])(
    '%s → errors %j (seed 001, Group: attributes keyed by attribute name; Groups: errors such as attributes.region)',
    (_, attributes, want) => {
      const { t, a } = withRegion();
      const run = () => updateGroup(t, SITE_KEY, a.id, { name: 'A', attributes }, AT);
      if (want.length === 0) expect(run().attributes).toEqual(attributes);
      else expect(Object.keys(caught(run).fields)).toEqual(want);
    },
  );

  it('replaces the attribute values on PATCH (seed 001, PATCH /groups: attributes)', () => {
    const { t } = withRegion();
    const g = createGroup(t, SITE_KEY, { name: 'D', attributes: { region: 'EMEA' } }, AT);
    updateGroup(t, SITE_KEY, g.id, { name: 'D', attributes: { region: 'APAC' } }, AT);
    expect(g.attributes).toEqual({ region: 'APAC' });
  });
});

describe('addMember', () => {
  const withUser = () => {
    const g = tree();
    const u = createUser(
      g.t,
      SITE_KEY,
      { id: 'lena', name: 'Lena', email: 'lena@x.example', password: 'password1', roleAlias: 'learner' },
      AT,
    );
    return { ...g, u };
  };

  it('adds the user to the group both ways and emits group.user.created (seed 001, Events: group.user.created)', () => {
    const { t, a, u } = withUser();
    addMember(t, a.id, u.id, AT + 5);
    expect(a.memberIds).toEqual([u.id]);
    expect(u.groupIds).toEqual([a.id]);
    const event = t.lastEvent('group.user.created');
    expect(event?.occuredAt).toBe(AT + 5);
    expect(event?.body).toMatchObject({ user: { id: 'lena' }, group: { id: a.id, name: 'A' } });
  });

  it('adding a member twice changes nothing (seed 001, Events: receivers should be idempotent; no duplicate membership)', () => {
    const { t, a, u } = withUser();
    addMember(t, a.id, u.id, AT);
    const before = JSON.stringify(t.toData());
    addMember(t, a.id, u.id, AT);
    expect(JSON.stringify(t.toData())).toBe(before);
  });

  it('gives a new member the courses assigned to the group earlier (seed 001, Courses and assignments: groups)', () => {
    const { t, a, u } = withUser();
    t.addCourse({
      id: 7,
      name: 'Safety',
      annotation: '',
      description: '',
      isDraft: false,
      createdAt: AT,
      updatedAt: AT,
      publishedAt: AT,
      ownerId: u.id,
      sharedWith: [],
      attachedFiles: [],
      settings: { sequential: false, hasCertificate: false, certificateValidDays: null, passingScore: 60 },
      structure: { elements: [], transitions: [] },
      experts: [],
    });
    assignToGroup(t, a.id, 7, { deadlineAt: AT + 100 }, AT);
    expect(t.assignment(u.id, 7)).toBeUndefined();
    addMember(t, a.id, u.id, AT + 10);
    expect(t.assignment(u.id, 7)).toMatchObject({ courseId: 7, assignedAt: AT + 10 });
  });
});
