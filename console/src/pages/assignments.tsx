// Data › assignments: the tenant's assignments a page at a time, filtered by learner, course and status
// on the server (listTenantAssignments reads a learner's or course's through the tenant's indexes), so
// the 100 000-user scale seed pages as quickly as the demo. A row opens its learner's detail.
import { useEffect, useState } from 'preact/hooks';
import type { components, operations } from '../../../generated/admin.ts';
import { iso, problem } from '../api.ts';
import { ErrorLine, NOTHING_SHOWN, Pager, type Shown, useConsole, useLoads } from '../shared.tsx';

const PAGE = 25;
type Filters = NonNullable<operations['listTenantAssignments']['parameters']['query']>;
type Status = NonNullable<Filters['status']>;
const STATUSES: Status[] = ['notStarted', 'inProgress', 'finished', 'overdue'];

export function Assignments({ onUser }: { onUser: (id: number) => void }) {
  const { admin, tenantId } = useConsole();
  const [learner, setLearner] = useState('');
  const [course, setCourse] = useState('');
  const [filters, setFilters] = useState<Omit<Filters, 'offset' | 'limit'>>({});
  const [offset, setOffset] = useState(0);
  const [shown, setShown] = useState<Shown<components['schemas']['AdminAssignment']>>(NOTHING_SHOWN);
  const [error, setError] = useState<string | null>(null);

  const loads = useLoads();
  useEffect(() => {
    const n = loads.begin();
    admin
      .GET('/tenants/{tenantId}/assignments', {
        params: { path: { tenantId }, query: { ...filters, offset, limit: PAGE } },
      })
      .then(({ data, error: e }) => {
        if (!loads.take(n)) return;
        setShown({ offset, rows: data?.assignments ?? [], total: data?.total ?? 0 });
        setError(e ? problem(e) : null);
      });
  }, [admin, tenantId, filters, offset]);
  const { rows, total } = shown;

  const apply = (next: Omit<Filters, 'offset' | 'limit'>) => {
    setFilters(next);
    setOffset(0);
  };
  // The learner and course are applied on submit, not per keystroke: half an API ID names nobody.
  const submit = (event: Event) => {
    event.preventDefault();
    apply({
      ...(learner.trim() ? { userId: learner.trim() } : {}),
      ...(course.trim() ? { courseId: Number(course.trim()) } : {}),
      ...(filters.status ? { status: filters.status } : {}),
    });
  };
  const byStatus = (status: string) => {
    const { status: _, ...rest } = filters;
    apply(status ? { ...rest, status: status as Status } : rest);
  };

  return (
    <div>
      <form class="inline" aria-label="Assignment filters" onSubmit={submit}>
        <label>
          Learner
          <input
            name="userId"
            value={learner}
            placeholder="id or API ID"
            size={12}
            onInput={(e) => setLearner(e.currentTarget.value)}
          />
        </label>
        <label>
          Course
          <input
            name="courseId"
            value={course}
            placeholder="id"
            size={6}
            onInput={(e) => setCourse(e.currentTarget.value)}
          />
        </label>
        <label>
          Status
          <select
            name="status"
            value={filters.status ?? ''}
            onChange={(e) => byStatus(e.currentTarget.value)}
          >
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorLine message={error} />
      <table aria-label="assignments">
        <thead>
          <tr>
            <th>learner</th>
            <th>course</th>
            <th>status</th>
            <th>progress</th>
            <th>result</th>
            <th>deadline</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr data-id={`${a.userId}/${a.courseId}`} class="clickable" onClick={() => onUser(a.userId)}>
              <td>{a.userId}</td>
              <td>{a.courseId}</td>
              <td class="status">{a.status}</td>
              <td>{a.progressValue}%</td>
              <td>{a.resultValue ?? '—'}</td>
              <td>{iso(a.deadlineAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager offset={shown.offset} size={PAGE} total={total} onOffset={setOffset} />
    </div>
  );
}
