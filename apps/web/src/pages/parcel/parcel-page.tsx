import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { InstanceAnswer } from '../../api-types.js';
import { Link } from '../../components/link.js';
import { ErrorState, Loading, useLoad } from '../../components/states.js';
import { navigate, useRoute } from '../../router.js';
import { Connect } from './connect.js';
import { Dashboard } from './dashboard.js';
import { PREFIX, rememberedInstance, rememberInstance } from './instance.js';
import { ActivityLog, Trackings, WebhookLog } from './lists.js';
import { Settings } from './settings.js';

const BASE = '/integrations/parcel-tracking';
const TABS = [
  ['', 'Dashboard'],
  ['/trackings', 'Trackings'],
  ['/webhooks', 'Webhook log'],
  ['/activity', 'Activity'],
  ['/settings', 'Settings'],
] as const;

function Connected(props: { id: string; onGone: () => void }) {
  const { path } = useRoute();
  const tab = path.slice(BASE.length).replace(/\/$/, '');
  const instance = useLoad(
    () => api<InstanceAnswer>('GET', `${PREFIX}/instances/${props.id}`),
    `instance:${props.id}`,
  );
  // Disconnected elsewhere (or never ours): forget it and offer to connect.
  const gone = instance.error instanceof ApiError && instance.error.status === 404;
  useEffect(() => {
    if (gone) props.onGone();
  }, [gone]);
  if (gone) return null;
  const id = Number(props.id);
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
      {tab === '/trackings' ? (
        <Trackings instanceId={id} />
      ) : tab === '/webhooks' ? (
        <WebhookLog instanceId={id} />
      ) : tab === '/activity' ? (
        <ActivityLog instanceId={id} />
      ) : instance.error ? (
        <ErrorState error={instance.error} onRetry={instance.reload} />
      ) : !instance.data ? (
        <Loading />
      ) : tab === '/settings' ? (
        <Settings
          instance={instance.data.data}
          onSaved={instance.reload}
          onDisconnected={props.onGone}
        />
      ) : (
        <Dashboard instance={instance.data.data} />
      )}
    </>
  );
}

/** Integrations → Parcel tracking: connect, or the connected instance's pages. */
export function ParcelTrackingPage() {
  const [id, setId] = useState(rememberedInstance());
  return (
    <section>
      <p class="crumbs">Integrations</p>
      <h1>Parcel tracking</h1>
      {id ? (
        <Connected
          key={id}
          id={id}
          onGone={() => {
            rememberInstance(null);
            setId(null);
            navigate(BASE);
          }}
        />
      ) : (
        <Connect
          onConnected={(newId) => {
            setId(String(newId));
            navigate(BASE);
          }}
        />
      )}
    </section>
  );
}
