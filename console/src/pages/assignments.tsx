// Data › assignments: the tenant's assignments a page at a time, filtered by learner, course and status
// on the server (listTenantAssignments reads a learner's or course's through the tenant's indexes), so
// the 100 000-user scale seed pages as quickly as the demo. A row opens its learner's detail.
import { useState } from 'preact/hooks';
import type { components, operations } from '../../../generated/admin.ts';
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
import { usePage } from '../hooks.ts';

const PAGE = 25;
type Filters = NonNullable<operations['listTenantAssignments']['parameters']['query']>;
type Status = NonNullable<Filters['status']>;
const STATUSES: Status[] = ['notStarted', 'inProgress', 'finished', 'overdue'];

type Assignment = components['schemas']['AdminAssignment'];
const COLUMNS: Column<Assignment>[] = [
  { head: 'learner', cell: (a) => a.userId },
  { head: 'course', cell: (a) => a.courseId },
  { head: 'status', cell: (a) => a.status, class: 'status' },
  { head: 'progress', cell: (a) => `${a.progressValue}%` },
  { head: 'result', cell: (a) => a.resultValue ?? '—' },
  { head: 'deadline', cell: (a) => iso(a.deadlineAt) },
];

export function Assignments({ onUser }: { onUser: (id: number) => void }) {
  const { admin, tenantId } = useConsole();
  const [learner, setLearner] = useState('');
  const [course, setCourse] = useState('');
  const [filters, setFilters] = useState<Omit<Filters, 'offset' | 'limit'>>({});
  const [offset, setOffset] = useState(0);
  const [shown, setShown] = useState<Shown<Assignment>>(NOTHING_SHOWN);
  const page = usePage(
    () =>
      admin.GET('/tenants/{tenantId}/assignments', {
        params: { path: { tenantId }, query: { ...filters, offset, limit: PAGE } },
      }),
    ({ data }) => setShown({ offset, rows: data?.assignments ?? [], total: data?.total ?? 0 }),
    [admin, tenantId, filters, offset],
  );

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
      <ErrorLine message={page.error} />
      <Table
        label="assignments"
        columns={COLUMNS}
        rows={shown.rows}
        id={(a) => `${a.userId}/${a.courseId}`}
        rowClass={() => 'clickable'}
        onRow={(a) => onUser(a.userId)}
      />
      <Pager offset={shown.offset} size={PAGE} total={shown.total} onOffset={setOffset} />
    </div>
  );
}
