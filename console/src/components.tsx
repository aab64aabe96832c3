// Small pieces every page uses: an error line, a JSON block, a table, a pager, a page-wide context.
import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AdminClient } from '../../lib/admin-client.ts';

export interface ConsoleContext {
  admin: AdminClient;
  tenantId: string;
}
export const Console = createContext<ConsoleContext | null>(null);

export function useConsole(): ConsoleContext {
  const context = useContext(Console);
  if (!context) throw new Error('the console context is missing');
  return context;
}

export const ErrorLine = ({ message }: { message: string | null }) =>
  message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;

export const Json = ({ value }: { value: unknown }) => (
  <pre class="json">
    {value === null || value === undefined
      ? '(none)'
      : typeof value === 'string'
        ? value
        : JSON.stringify(value, null, 2)}
  </pre>
);

/** A column of a `Table`: its header ('' for a column of buttons) and what a row shows in it. */
export interface Column<T> {
  head: string;
  cell: (row: T) => ComponentChildren;
  /** The cell's class (console.css and the tests select on some), the same for every row or by row. */
  class?: string | ((row: T) => string);
  /** The cell's tooltip. */
  title?: (row: T) => string;
}

/**
 * A table of `rows`, one line each, in `columns`. `id` gives a row's `data-id`, `rowKey` its key,
 * `rowClass` its class, `onRow` what a click on it does; `empty` is said under the table when there are
 * no rows.
 */
export function Table<T>(props: {
  label: string;
  class?: string;
  columns: Column<T>[];
  rows: readonly T[];
  id?: (row: T) => string | number;
  rowKey?: (row: T) => string | number;
  rowClass?: (row: T) => string;
  onRow?: (row: T) => void;
  empty?: string;
}) {
  const { columns, id, rowKey, rowClass, onRow } = props;
  // A row that opens something is reached with Tab and opened with Enter too.
  const open = (row: T) => ({
    tabIndex: 0,
    onClick: () => onRow?.(row),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      onRow?.(row);
    },
  });
  return (
    <>
      <div class="table-scroll">
        <table class={props.class} aria-label={props.label}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th class={typeof c.class === 'string' ? c.class : undefined}>{c.head}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr
                key={rowKey?.(row)}
                data-id={id?.(row)}
                class={rowClass?.(row)}
                {...(onRow ? open(row) : {})}
              >
                {columns.map((c) => (
                  <td class={typeof c.class === 'function' ? c.class(row) : c.class} title={c.title?.(row)}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {props.empty && props.rows.length === 0 ? <p class="muted">{props.empty}</p> : null}
    </>
  );
}

/**
 * The page of a server-paged list on screen, with the offset it was asked at: the pager names these
 * rows, not a page still on its way, and a page's rows and count change together.
 */
export interface Shown<T> {
  offset: number;
  rows: T[];
  total: number;
}
export const NOTHING_SHOWN: Shown<never> = { offset: 0, rows: [], total: 0 };

/** Previous / "1–25 of 100" / Next over a list paged on the server. */
export const Pager = (props: {
  offset: number;
  size: number;
  total: number;
  onOffset: (offset: number) => void;
}) => {
  const { offset, size, total, onOffset } = props;
  return (
    <p class="pager">
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - size))}>
        Previous
      </button>{' '}
      <span role="status" aria-label="Page">
        {total === 0 ? 0 : offset + 1}–{Math.min(offset + size, total)} of {total}
      </span>{' '}
      <button type="button" disabled={offset + size >= total} onClick={() => onOffset(offset + size)}>
        Next
      </button>
    </p>
  );
};
