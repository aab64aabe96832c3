// Data: users, groups, courses and assignments a page at a time (the server pages and searches, so a
// tenant of 100 000 users stays fast), a user's groups and assignments with "play progress", and publishing.
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { iso, problem } from '../api.ts';
import { ErrorLine, NOTHING_SHOWN, Pager, type Shown, useConsole, useLoads } from '../shared.tsx';
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

function Records({ kind, onUser }: { kind: Kind; onUser: (id: number) => void }) {
  const { admin, tenantId } = useConsole();
  const [query, setQuery] = useState('');
  const [offset, setOffset] = useState(0);
  const [shown, setShown] = useState<Shown<Row>>(NOTHING_SHOWN);
  const loads = useLoads();
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const params = { path: { tenantId }, query: { offset, limit: PAGE, ...(query ? { query } : {}) } };
    const load = async () => {
      if (kind === 'users') {
        const { data, error: e } = await admin.GET('/tenants/{tenantId}/users', { params });
        if (data)
          return {
            total: data.total,
            rows: data.users.map((u) => ({ id: u.id, cells: [u.id, u.name, u.email, u.role] })),
          };
        throw e;
      }
      if (kind === 'groups') {
        const { data, error: e } = await admin.GET('/tenants/{tenantId}/groups', { params });
        if (data)
          return {
            total: data.total,
            rows: data.groups.map((g) => ({ id: g.id, cells: [g.id, g.name, g.parentId ?? '—', g.members] })),
          };
        throw e;
      }
      const { data, error: e } = await admin.GET('/tenants/{tenantId}/courses', { params });
      if (data)
        return {
          total: data.total,
          rows: data.courses.map((c) => ({
            id: c.id,
            draft: c.isDraft,
            cells: [c.id, c.name, c.isDraft ? 'draft' : `published ${iso(c.publishedAt)}`, c.assigned],
          })),
        };
      throw e;
    };
    const n = loads.begin();
    load().then(
      (page) => {
        if (!loads.take(n)) return;
        setShown({ offset, ...page });
        setError(null);
      },
      (e) => loads.take(n) && setError(problem(e)),
    );
  }, [admin, tenantId, kind, query, offset, version]);
  const { rows, total } = shown;

  const publish = async (courseId: number) => {
    const { error: e } = await admin.POST('/tenants/{tenantId}/courses/{courseId}/publish', {
      params: { path: { tenantId, courseId } },
    });
    setError(e ? problem(e) : null);
    setVersion((v) => v + 1);
  };
  const heads: Record<Kind, string[]> = {
    users: ['id', 'name', 'e-mail', 'role'],
    groups: ['id', 'name', 'parent', 'members'],
    courses: ['id', 'name', 'state', 'assigned'],
  };

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
      <ErrorLine message={error} />
      <table aria-label={kind}>
        <thead>
          <tr>
            {heads[kind].map((h) => (
              <th>{h}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              data-id={r.id}
              onClick={() => kind === 'users' && onUser(r.id)}
              class={kind === 'users' ? 'clickable' : ''}
            >
              {r.cells.map((c) => (
                <td>{c}</td>
              ))}
              <td>
                {r.draft ? (
                  <button type="button" onClick={() => publish(r.id)}>
                    Publish
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager offset={shown.offset} size={PAGE} total={total} onOffset={setOffset} />
    </div>
  );
}

function UserDetail({ userId }: { userId: number }) {
  const { admin, tenantId } = useConsole();
  const [detail, setDetail] = useState<components['schemas']['TenantUserDetail'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loads = useLoads();
  const load = async () => {
    const n = loads.begin();
    const { data, error: e } = await admin.GET('/tenants/{tenantId}/users/{userId}', {
      params: { path: { tenantId, userId } },
    });
    if (!loads.take(n)) return;
    setDetail(data ?? null);
    setError(data ? null : problem(e));
  };
  useEffect(() => {
    load();
  }, [userId, tenantId]);

  const play = async (courseId: number, action: components['schemas']['RecordProgressRequest']['action']) => {
    const body: components['schemas']['RecordProgressRequest'] =
      action === 'progress'
        ? { action, progressValue: 50 }
        : action === 'finish'
          ? { action, resultValue: 90 }
          : { action };
    const { error: e } = await admin.POST('/tenants/{tenantId}/users/{userId}/courses/{courseId}/progress', {
      params: { path: { tenantId, userId, courseId } },
      body,
    });
    setError(e ? problem(e) : null);
    await load();
  };

  if (!detail) return <ErrorLine message={error} />;
  return (
    <article class="detail" aria-label="User detail">
      <h3>
        {detail.user.name}{' '}
        <span class="muted">
          ({detail.user.apiId}, {detail.user.role}
          {detail.banned ? ', banned' : ''})
        </span>
      </h3>
      <ErrorLine message={error} />
      <p>Groups: {detail.groups.map((g) => g.name).join(', ') || 'none'}</p>
      <table aria-label="Assignments">
        <thead>
          <tr>
            <th>course</th>
            <th>status</th>
            <th>progress</th>
            <th>result</th>
            <th>deadline</th>
            <th>play</th>
          </tr>
        </thead>
        <tbody>
          {detail.assignments.map((a) => (
            <tr data-id={a.courseId}>
              <td>{a.courseId}</td>
              <td>{a.status}</td>
              <td>{a.progressValue}%</td>
              <td>{a.resultValue ?? '—'}</td>
              <td>{iso(a.deadlineAt)}</td>
              <td>
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
