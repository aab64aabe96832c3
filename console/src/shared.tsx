// Small pieces every page uses: an error line, a JSON block, a page-wide context.
import { createContext } from 'preact';
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
  <pre class="json">{value === null || value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</pre>
);
