import { useEffect } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { InstanceAnswer, InstanceListAnswer } from '../../api-types.js';
import { Link } from '../../components/link.js';
import { ErrorState, Loading, useLoad } from '../../components/states.js';
import { navigate, useRoute } from '../../router.js';
import { Connect } from './connect.js';
import { Dashboard } from './dashboard.js';
import { PARCEL_PAGE as BASE, PREFIX } from './instance.js';
import { ActivityLog, Trackings, WebhookLog } from './lists.js';
import { Settings } from './settings.js';
import { Shipment } from './shipment.js';

const TABS = [
  ['', 'Dashboard'],
  ['/trackings', 'Trackings'],
  ['/webhooks', 'Webhook log'],
  ['/activity', 'Activity'],
  ['/settings', 'Settings'],
] as const;

/** How often the open dashboard reads the instance again (shipments move while it is open). */
export const DASHBOARD_REFRESH_MS = 10_000;

function Connected(props: { id: number; onGone: () => void }) {
  const { path } = useRoute();
  const below = path.slice(BASE.length).replace(/\/$/, '');
  // A shipment's page lives under its list: /trackings/<id>.
  const shipment = /^\/trackings\/([^/]+)$/.exec(below)?.[1];
  const tab = shipment ? '/trackings' : below;
  const instance = useLoad(
    () => api<InstanceAnswer>('GET', `${PREFIX}/instances/${props.id}`),
    `instance:${props.id}`,
  );
  // Disconnected elsewhere: look for the tenant's instance again (there may be none now).
  const gone = instance.error instanceof ApiError && instance.error.status === 404;
  useEffect(() => {
    if (gone) props.onGone();
  }, [gone]);
  // The dashboard, settings and trackings (its carriers are the carrier filter's choices) read
  // the instance afresh each time they are opened, and the dashboard keeps reading it while open.
  const { reload } = instance;
  const live = tab === '';
  useEffect(() => {
    if (tab !== '' && tab !== '/settings' && tab !== '/trackings') return;
    reload();
    if (!live) return;
    const timer = setInterval(reload, DASHBOARD_REFRESH_MS);
    return () => clearInterval(timer);
  }, [tab]);
  if (gone) return null;
  return (
    <>
      <nav class="tabs" aria-label="Parcel tracking">
        <ul>
          {TABS.map(([suffix, text]) => (
            <li key={suffix}>
              <Link to={`${BASE}${suffix}`} current={tab === suffix}>
                {text}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {shipment ? (
        <Shipment instanceId={props.id} id={shipment} />
      ) : tab === '/trackings' ? (
        <Trackings instanceId={props.id} carriers={instance.data?.data.carriers_seen ?? []} />
      ) : tab === '/webhooks' ? (
        <WebhookLog instanceId={props.id} />
      ) : tab === '/activity' ? (
        <ActivityLog instanceId={props.id} />
      ) : instance.error && !instance.data ? (
        <ErrorState error={instance.error} onRetry={instance.reload} />
      ) : !instance.data ? (
        <Loading label="Loading the dashboard…" />
      ) : tab === '/settings' ? (
        <Settings
          instance={instance.data.data}
          onSaved={instance.reload}
          onDisconnected={props.onGone}
        />
      ) : (
        <Dashboard
          instance={instance.data.data}
          loading={instance.loading}
          error={instance.error}
          onRefresh={instance.reload}
        />
      )}
    </>
  );
}

/**
 * Integrations → Parcel tracking: the tenant's instance found through the API (so any browser
 * of any admin finds it), else the form to connect one.
 */
export function ParcelTrackingPage() {
  const found = useLoad(
    () => api<InstanceListAnswer>('GET', `${PREFIX}/instances`),
    'parcel-instances',
  );
  const id = found.data?.data[0]?.id;
  return (
    <section>
      <p class="crumbs">Integrations</p>
      <h1>Parcel tracking</h1>
      {found.error ? (
        <ErrorState error={found.error} onRetry={found.reload} />
      ) : !found.data ? (
        <Loading label="Looking for your connection…" />
      ) : id !== undefined ? (
        <Connected
          key={id}
          id={id}
          onGone={() => {
            found.reload();
            navigate(BASE);
          }}
        />
      ) : (
        <Connect
          onConnected={() => {
            found.reload();
            navigate(BASE);
          }}
        />
      )}
    </section>
  );
}
