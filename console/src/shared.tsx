// Small pieces every page uses: an error line, a JSON block, a pager, a page-wide context.
import { createContext } from 'preact';
import { useContext, useRef } from 'preact/hooks';
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

/**
 * A view's loads, numbered: `begin()` as one starts, `take(n)` once its answers are in, which says
 * whether to show them. Answers of a load begun before the one on screen (another page or learner or
 * request chosen since, the tenant switched, a poll overtaken by the reload after a write) are
 * dropped, so a slow answer never replaces a newer one; any newer answer is shown, so polls slower
 * than their interval still show something.
 */
export function useLoads() {
  const begun = useRef(0);
  const shown = useRef(0);
  return {
    begin: () => ++begun.current,
    take: (n: number) => {
      if (n < shown.current) return false;
      shown.current = n;
      return true;
    },
  };
}

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
