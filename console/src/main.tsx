// The console's shell: sign-in from the URL fragment, the tenant picker, and one page per part of
// the mock (docs/console.md). Pages are chosen by the fragment (`#requests`, `#tenant`, …).
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { clientFor, problem, signIn, signOut } from './api.ts';
import { Console, ErrorLine } from './components.tsx';
import { DataPage } from './pages/data.tsx';
import { FaultsPage } from './pages/faults.tsx';
import { Requests } from './pages/requests.tsx';
import { TenantPage } from './pages/tenant.tsx';
import { TimePage } from './pages/time.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';

const PAGES = {
  requests: ['Requests', Requests],
  tenant: ['Tenant', TenantPage],
  data: ['Data', DataPage],
  time: ['Time and jobs', TimePage],
  webhooks: ['Webhooks', WebhooksPage],
  faults: ['Faults and snapshots', FaultsPage],
} as const;
type PageName = keyof typeof PAGES;

const pageOf = (hash: string): PageName => {
  const name = hash.slice(1);
  return name in PAGES ? (name as PageName) : 'requests';
};

function SignIn({ onToken }: { onToken: (token: string) => void }) {
  const [token, setToken] = useState('');
  return (
    <main class="signin">
      <h1>lmskit console</h1>
      <p>
        Open the console from the link <code>npm start</code> printed (it carries the admin token), or paste
        the admin token here.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onToken(token);
        }}
      >
        <input aria-label="Admin token" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}

function App() {
  const [token, setToken] = useState(signIn());
  const [page, setPage] = useState(pageOf(location.hash));
  const [tenants, setTenants] = useState<string[]>([]);
  const [tenantId, setTenantId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = useMemo(() => (token ? clientFor(token) : null), [token]);

  useEffect(() => {
    const follow = () => setPage(pageOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => {
    if (!admin) return;
    admin.GET('/tenants').then(({ data, error: refused, response }) => {
      if (response.status === 401) {
        signOut();
        setToken(null);
        return;
      }
      if (!data) return setError(problem(refused));
      setTenants(data.tenants.map((t) => t.id));
      setTenantId((current) => current ?? data.tenants[0]?.id ?? null);
    });
  }, [admin]);

  if (!token || !admin)
    return (
      <SignIn
        onToken={(t) => {
          sessionStorage.setItem('lmskit-admin-token', t);
          setToken(t);
        }}
      />
    );
  const [, Page] = PAGES[page];
  return (
    <>
      <header class="top">
        <h1>lmskit console</h1>
        <nav aria-label="Pages">
          {(Object.keys(PAGES) as PageName[]).map((name) => (
            <a href={`#${name}`} aria-current={name === page ? 'page' : undefined}>
              {PAGES[name][0]}
            </a>
          ))}
          <a href="../docs/">Docs</a>
        </nav>
        <label class="tenant">
          Tenant
          <select value={tenantId ?? ''} onChange={(e) => setTenantId(e.currentTarget.value)}>
            {tenants.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
        </label>
      </header>
      <main>
        <ErrorLine message={error} />
        {tenantId ? (
          <Console.Provider value={{ admin, tenantId }}>
            <Page />
          </Console.Provider>
        ) : null}
      </main>
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
