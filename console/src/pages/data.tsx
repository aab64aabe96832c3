// Data: users, groups, courses and assignments a page at a time (the server pages and searches, so a
// tenant of 100 000 users stays fast), a user's groups and assignments with "play progress", and publishing.
import { useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import type { AdminClient } from '../../../lib/admin-client.ts';
import { iso } from '../api.ts';
import {
  type Column,
  ErrorLine,
  NOTHING_SHOWN,
  Pager,
  type Shown,
  Table,
  useConsole,
} from '../components.tsx';
import { type Answer, usePage } from '../hooks.ts';
import { Assignments } from './assignments.tsx';

const PAGE = 25;
type Kind = 'users' | 'groups' | 'courses';
type Tab = Kind | 'assignments';

export function DataPage() {
  const [kind, setKind] = useState<Tab>('users');
  const [userId, setUserId] = useState<number | null>(null);
  return (
    <section>
      <h2>Data</h2>
      <nav class="tabs" aria-label="Records">
        {(['users', 'groups', 'courses', 'assignments'] as const).map((k) => (
          <button type="button" class={k === kind ? 'current' : ''} onClick={() => setKind(k)}>
            {k}
          </button>
        ))}
      </nav>
      <div class="split">
        {kind === 'assignments' ? (
          <Assignments onUser={setUserId} />
        ) : (
          <Records kind={kind} onUser={setUserId} key={kind} />
        )}
        {(kind === 'users' || kind === 'assignments') && userId !== null ? (
          <UserDetail userId={userId} />
        ) : null}
      </div>
    </section>
  );
}

type Row = { id: number; cells: (string | number)[]; draft?: boolean };
const HEADS: Record<Kind, string[]> = {
  users: ['id', 'name', 'e-mail', 'role'],
  groups: ['id', 'name', 'parent', 'members'],
  courses: ['id', 'name', 'state', 'assigned'],
};

/** A page of users, groups or courses as rows of cells. */
async function rowsOf(
  admin: AdminClient,
  kind: Kind,
  params: { path: { tenantId: string }; query: { offset: number; limit: number; query?: string } },
): Promise<Answer<Omit<Shown<Row>, 'offset'>>> {
  if (kind === 'users') {
    const { data, error } = await admin.GET('/tenants/{tenantId}/users', { params });
    return {
      error,
      data: data && {
        total: data.total,
        rows: data.users.map((u) => ({ id: u.id, cells: [u.id, u.name, u.email, u.role] })),
      },
    };
  }
  if (kind === 'groups') {
    const { data, error } = await admin.GET('/tenants/{tenantId}/groups', { params });
    return {
      error,
      data: data && {
        total: data.total,
        rows: data.groups.map((g) => ({ id: g.id, cells: [g.id, g.name, g.parentId ?? '—', g.members] })),
      },
    };
  }
  const { data, error } = await admin.GET('/tenants/{tenantId}/courses', { params });
  return {
    error,
    data: data && {
      total: data.total,
      rows: data.courses.map((c) => ({
        id: c.id,
        draft: c.isDraft,
        cells: [c.id, c.name, c.isDraft ? 'draft' : `published ${iso(c.publishedAt)}`, c.assigned],
      })),
    },
  };
}

function Records({ kind, onUser }: { kind: Kind; onUser: (id: number) => void }) {
  const { admin, tenantId } = useConsole();
  const [query, setQuery] = useState('');
  const [offset, setOffset] = useState(0);
  const [shown, setShown] = useState<Shown<Row>>(NOTHING_SHOWN);
  const page = usePage(
    () =>
      rowsOf(admin, kind, {
        path: { tenantId },
        query: { offset, limit: PAGE, ...(query ? { query } : {}) },
      }),
    ({ data }) => data && setShown({ offset, ...data }),
    [admin, tenantId, kind, query, offset],
  );
  const publish = (courseId: number) =>
    page.change(
      admin.POST('/tenants/{tenantId}/courses/{courseId}/publish', {
        params: { path: { tenantId, courseId } },
      }),
    );
  const columns: Column<Row>[] = [
    ...HEADS[kind].map((head, i) => ({ head, cell: (r: Row) => r.cells[i] })),
    {
      head: '',
      cell: (r) =>
        r.draft ? (
          <button type="button" onClick={() => publish(r.id)}>
            Publish
          </button>
        ) : null,
    },
  ];

  return (
    <div>
      <input
        type="search"
        aria-label={`Search ${kind}`}
        placeholder={`Search ${kind}`}
        value={query}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setOffset(0);
        }}
      />
      <ErrorLine message={page.error} />
      <Table
        label={kind}
        columns={columns}
        rows={shown.rows}
        id={(r) => r.id}
        rowClass={() => (kind === 'users' ? 'clickable' : '')}
        onRow={(r) => kind === 'users' && onUser(r.id)}
      />
      <Pager offset={shown.offset} size={PAGE} total={shown.total} onOffset={setOffset} />
    </div>
  );
}

type Play = components['schemas']['RecordProgressRequest']['action'];
const BODIES: Record<Play, components['schemas']['RecordProgressRequest']> = {
  start: { action: 'start' },
  progress: { action: 'progress', progressValue: 50 },
  finish: { action: 'finish', resultValue: 90 },
};

function UserDetail({ userId }: { userId: number }) {
  const { admin, tenantId } = useConsole();
  const [detail, setDetail] = useState<components['schemas']['TenantUserDetail'] | null>(null);
  const page = usePage(
    () => admin.GET('/tenants/{tenantId}/users/{userId}', { params: { path: { tenantId, userId } } }),
    ({ data }) => setDetail(data ?? null),
    [userId, tenantId],
  );
  const play = (courseId: number, action: Play) =>
    page.change(
      admin.POST('/tenants/{tenantId}/users/{userId}/courses/{courseId}/progress', {
        params: { path: { tenantId, userId, courseId } },
        body: BODIES[action],
      }),
    );
  const columns: Column<components['schemas']['TenantUserDetail']['assignments'][number]>[] = [
    { head: 'course', cell: (a) => a.courseId },
    { head: 'status', cell: (a) => a.status },
    { head: 'progress', cell: (a) => `${a.progressValue}%` },
    { head: 'result', cell: (a) => a.resultValue ?? '—' },
    { head: 'deadline', cell: (a) => iso(a.deadlineAt) },
    {
      head: 'play',
      cell: (a) => (
        <>
          {a.startedAt === null ? (
            <button type="button" onClick={() => play(a.courseId, 'start')}>
              Start
            </button>
          ) : null}
          {a.finishedAt === null ? (
            <>
              <button type="button" onClick={() => play(a.courseId, 'progress')}>
                50%
              </button>
              <button type="button" onClick={() => play(a.courseId, 'finish')}>
                Finish
              </button>
            </>
          ) : null}
        </>
      ),
    },
  ];

  if (!detail) return <ErrorLine message={page.error} />;
  return (
    <article class="detail" aria-label="User detail">
      <h3>
        {detail.user.name}{' '}
        <span class="muted">
          ({detail.user.apiId}, {detail.user.role}
          {detail.banned ? ', banned' : ''})
        </span>
      </h3>
      <ErrorLine message={page.error} />
      <p>Groups: {detail.groups.map((g) => g.name).join(', ') || 'none'}</p>
      <Table label="Assignments" columns={columns} rows={detail.assignments} id={(a) => a.courseId} />
    </article>
  );
}
