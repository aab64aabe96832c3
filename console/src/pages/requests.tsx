// Requests: the live journal (polled every second), its filters, and a request in full — request and
// answer side by side, the contract verdict, "copy as curl", and the journal as HAR.
import { useEffect, useState } from 'preact/hooks';
import type { components, operations } from '../../../generated/admin.ts';
import { download } from '../api.ts';
import { type Column, ErrorLine, Json, Table, useConsole } from '../components.tsx';
import { curlOf } from '../curl.ts';
import { usePage } from '../hooks.ts';

type Entry = components['schemas']['JournalEntry'];
type Detail = components['schemas']['JournalEntryDetail'];
type Filters = NonNullable<operations['getRequestJournal']['parameters']['query']>;

const STATUS_RANGES: Record<string, [number, number] | null> = {
  any: null,
  '2xx': [200, 299],
  '3xx': [300, 399],
  '4xx': [400, 499],
  '5xx': [500, 599],
};
const POLL_MS = 1000;

export function Requests() {
  const { admin } = useConsole();
  const [api, setApi] = useState('');
  const [method, setMethod] = useState('');
  const [range, setRange] = useState('any');
  const [path, setPath] = useState('');
  const [operationId, setOperationId] = useState('');
  const [caller, setCaller] = useState('');
  const [entries, setEntries] = useState<Entry[]>([]);
  const [held, setHeld] = useState<{ held: number; size: number } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  const filters = (): Filters => {
    const bounds = STATUS_RANGES[range];
    return {
      limit: 200,
      ...(api ? { api: api as Filters['api'] } : {}),
      ...(method ? { method: method as Filters['method'] } : {}),
      ...(bounds ? { minStatus: bounds[0], maxStatus: bounds[1] } : {}),
      ...(path ? { path } : {}),
      ...(operationId ? { operationId } : {}),
      ...(caller ? { caller } : {}),
    };
  };
  const page = usePage(
    () => admin.GET('/journal', { params: { query: filters() } }),
    ({ data }) => {
      if (!data) return;
      setEntries(data.requests);
      setHeld({ held: data.held, size: data.size });
    },
    [admin, api, method, range, path, operationId, caller],
    POLL_MS,
  );
  const exportHar = () =>
    page.call(
      admin.GET('/journal/har', { params: { query: filters() } }),
      (har) => har && download('lmskit-journal.har', har),
    );

  const text = (value: string, set: (v: string) => void, label: string, placeholder: string) => (
    <label>
      {label}
      <input value={value} placeholder={placeholder} onInput={(e) => set(e.currentTarget.value)} />
    </label>
  );

  return (
    <section class="requests">
      <h2>Requests</h2>
      <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          API
          <select value={api} onChange={(e) => setApi(e.currentTarget.value)}>
            <option value="">all</option>
            {['v1', 'v2', 'mcp', 'admin', 'other'].map((a) => (
              <option value={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          Method
          <select value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
            <option value="">all</option>
            {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={range} onChange={(e) => setRange(e.currentTarget.value)}>
            {Object.keys(STATUS_RANGES).map((r) => (
              <option value={r}>{r}</option>
            ))}
          </select>
        </label>
        {text(path, setPath, 'Path', '/courses')}
        {text(operationId, setOperationId, 'Operation', 'listCourses')}
        {text(caller, setCaller, 'Caller', 'tenant, key or user id')}
        <button type="button" onClick={exportHar}>
          Export HAR
        </button>
      </form>
      <ErrorLine message={page.error} />
      <p class="muted">
        {held
          ? `${entries.length} shown; the journal holds ${held.held} of at most ${held.size}, newest first.`
          : ''}
        {selected ? '' : ' Choose a request to see it in full.'}
      </p>
      {/* With a request open beside it, the list keeps the columns that tell requests apart. */}
      <div class={selected ? 'split' : ''}>
        <Table
          label="Journal"
          class="journal"
          columns={JOURNAL}
          rows={entries}
          rowKey={(e) => e.id}
          id={(e) => e.id}
          rowClass={(e) => `${e.id === selected ? 'selected' : ''} status-${String(e.status)[0]}xx`}
          onRow={(e) => setSelected(e.id)}
        />
        {selected ? <RequestDetail id={selected} /> : null}
      </div>
    </section>
  );
}

const verdictClass = (e: Entry) =>
  e.verdict.request === 'invalid' || e.verdict.response === 'invalid'
    ? 'bad'
    : e.verdict.response === 'unchecked'
      ? 'unchecked'
      : 'ok';
const verdictText = (e: Entry) =>
  verdictClass(e) === 'bad' ? 'departs' : verdictClass(e) === 'unchecked' ? 'unchecked' : 'kept';

/**
 * Beside a request's detail, or on a phone, the list keeps time, method, URL, status and verdict (the
 * detail shows the rest: `secondary`); on a phone it drops the time too (`wide-only`).
 */
const JOURNAL: Column<Entry>[] = [
  {
    head: 'time',
    cell: (e) => e.at.slice(11, 23),
    title: (e) => `virtual ${e.virtualAt}`,
    class: 'wide-only',
  },
  { head: 'api', cell: (e) => e.api, class: 'secondary' },
  { head: 'method', cell: (e) => e.method },
  { head: 'url', cell: (e) => e.url, class: 'url', title: (e) => e.url },
  { head: 'status', cell: (e) => e.status, class: 'status' },
  { head: 'operation', cell: (e) => e.operationId ?? '—', class: 'secondary' },
  {
    head: 'caller',
    cell: (e) =>
      e.caller ? [e.caller.tenantId, e.caller.keyId, e.caller.userId].filter(Boolean).join(' · ') : '—',
    class: 'secondary',
  },
  { head: 'contract', cell: verdictText, class: (e) => `verdict ${verdictClass(e)}` },
  { head: 'ms', cell: (e) => e.latencyMs.toFixed(1), class: 'secondary' },
];

function RequestDetail({ id }: { id: string }) {
  const { admin } = useConsole();
  const [detail, setDetail] = useState<Detail | null>(null);
  const [curl, setCurl] = useState<string | null>(null);
  const page = usePage(
    () => admin.GET('/journal/{requestId}', { params: { path: { requestId: id } } }),
    ({ data }) => setDetail(data ?? null),
    [admin, id],
  );
  useEffect(() => {
    setCurl(null);
  }, [admin, id]);

  if (page.error) return <ErrorLine message={page.error} />;
  if (!detail) return <p class="muted">Loading {id}…</p>;
  const { entry, request, response } = detail;
  const copy = async () => {
    const command = curlOf(detail, location.origin);
    setCurl(command);
    await navigator.clipboard?.writeText(command).catch(() => undefined);
  };
  return (
    <article class="detail" aria-label="Request detail">
      <header>
        <h3>
          {entry.method} {entry.url} → <span class="status">{entry.status}</span>
        </h3>
        <p class="muted">
          {entry.id} · {entry.api} · {entry.operationId ?? 'no operation matched'} · {entry.latencyMs} ms ·
          wall {entry.at} · virtual {entry.virtualAt}
        </p>
        <section class={`verdict-box ${verdictClass(entry)}`} aria-label="Contract verdict">
          <strong>Contract:</strong> request {entry.verdict.request}, answer {entry.verdict.response}
          {entry.verdict.errors.length ? (
            <ul>
              {entry.verdict.errors.map((e) => (
                <li>{e}</li>
              ))}
            </ul>
          ) : null}
        </section>
        <button type="button" onClick={copy}>
          Copy as curl
        </button>
        {curl ? (
          <section aria-label="curl command">
            <pre class="curl">{curl}</pre>
          </section>
        ) : null}
      </header>
      <div class="side-by-side">
        <Message title="Request" message={request} />
        <Message title="Response" message={response} />
      </div>
    </article>
  );
}

function Message({ title, message }: { title: string; message: Detail['request'] }) {
  return (
    <section class="message" aria-label={title}>
      <h4>{title}</h4>
      <table class="headers">
        <tbody>
          {Object.entries(message.headers).map(([name, value]) => (
            <tr>
              <th>{name}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {message.bodyNote ? <p class="note">{message.bodyNote}</p> : null}
      <Json value={message.body} />
    </section>
  );
}
