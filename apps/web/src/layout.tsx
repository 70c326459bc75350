import { useEffect } from 'preact/hooks';
import { api } from './api.js';
import type { TenantAnswer } from './api-types.js';
import { AlertsBell } from './components/alerts-bell.js';
import { useLoad } from './components/states.js';
import { Link } from './components/link.js';
import { match, useRoute } from './router.js';
import { useSession } from './session.js';
import { Home } from './pages/home.js';
import { TokensPage } from './pages/tokens/tokens-page.js';
import { TokenDetail } from './pages/tokens/token-detail.js';
import { ParcelTrackingPage } from './pages/parcel/parcel-page.js';
import { WebhooksPage } from './pages/webhooks/webhooks-page.js';
import { SubscriptionDetail } from './pages/webhooks/subscription-detail.js';
import { SecurityPage } from './pages/security.js';

const NAV = [
  { to: '/', label: 'Home' },
  { to: '/integrations/parcel-tracking', label: 'Parcel tracking' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/settings/developer/tokens', label: 'Access tokens' },
  { to: '/settings/security', label: 'Security' },
];

const PARCEL_TABS: Record<string, string> = {
  trackings: 'Trackings',
  webhooks: 'Webhook log',
  activity: 'Activity',
  settings: 'Settings',
};

/** The page's name for the window title and history, most specific first. */
export function titleOf(path: string): string {
  if (path === '/' || path === '') return 'Home';
  if (match('/settings/developer/tokens', path)) return 'Personal access tokens';
  const token = match('/settings/developer/tokens/:id', path);
  if (token) return `Token #${token.id} · Personal access tokens`;
  if (path.startsWith('/integrations/parcel-tracking')) {
    const shipment = /^\/integrations\/parcel-tracking\/trackings\/([^/]+)\/?$/.exec(path)?.[1];
    if (shipment) return `Shipment #${shipment} · Parcel tracking`;
    const tab = PARCEL_TABS[path.split('/')[3] ?? ''];
    return tab ? `${tab} · Parcel tracking` : 'Parcel tracking';
  }
  if (match('/webhooks', path)) return 'Webhooks';
  const subscription = match('/webhooks/:id', path);
  if (subscription) return `Subscription #${subscription.id} · Webhooks`;
  if (match('/settings/security', path)) return 'Security';
  return 'Page not found';
}

function Page(props: { path: string }) {
  const { path } = props;
  if (path === '/' || path === '') return <Home />;
  if (match('/settings/developer/tokens', path)) return <TokensPage />;
  const token = match('/settings/developer/tokens/:id', path);
  if (token) return <TokenDetail id={token.id!} />;
  if (path.startsWith('/integrations/parcel-tracking')) return <ParcelTrackingPage />;
  if (match('/webhooks', path)) return <WebhooksPage />;
  const subscription = match('/webhooks/:id', path);
  if (subscription) return <SubscriptionDetail id={subscription.id!} />;
  if (match('/settings/security', path)) return <SecurityPage />;
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to the start page</Link>
      </p>
    </section>
  );
}

export function Layout() {
  const { user, signOut } = useSession();
  const { path } = useRoute();
  const section = (to: string) => (to === '/' ? path === '/' : path.startsWith(to));
  // Which tenant this is, for an admin of several; the header does without it if it fails.
  const tenant = useLoad(() => api<TenantAnswer>('GET', '/api/tenant'), 'tenant');
  useEffect(() => {
    document.title = `${titleOf(path)} · Inventory`;
  }, [path]);
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <strong class="brand">Inventory</strong>
        {tenant.data && (
          <span class="tenant-name" data-testid="tenant-name" title="Your organisation">
            {tenant.data.data.name}
          </span>
        )}
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <Link to={item.to} current={section(item.to)}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          <AlertsBell />
          <span class="who" title={user.email}>
            {user.email}
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Page path={path} />
      </main>
    </div>
  );
}
