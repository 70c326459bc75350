import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { Alert, AlertPage } from '../api-types.js';
import { navigate } from '../router.js';
import { formatDate } from './confirm.js';
import { ErrorState, Loading } from './states.js';

/** Unread in-app alerts: the user's own (their tokens) and, for admins, the tenant's inbox (quota, arrivals, deactivated subscriptions); mark one or all as read. */
export function AlertsBell() {
  const [open, setOpen] = useState(false);
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [unread, setUnread] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const panel = useRef<HTMLDivElement>(null);

  const load = async () => {
    try {
      setError(null);
      const list = await api<AlertPage>('GET', '/api/alerts?per_page=20');
      setAlerts(list.data);
      setUnread(list.unread_count);
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const markRead = async (alert: Alert) => {
    await api('POST', `/api/alerts/${alert.id}/read`);
    await load();
  };
  const markAll = async () => {
    await api('POST', '/api/alerts/read-all');
    await load();
  };

  return (
    <div class="bell">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="alerts-panel"
        onClick={() => {
          setOpen(!open);
          if (!open) void load();
        }}
        onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
      >
        Alerts
        {unread ? (
          <span class="badge" aria-label={`${unread} unread`}>
            {unread}
          </span>
        ) : null}
      </button>
      {open && (
        <div id="alerts-panel" class="panel" ref={panel} role="region" aria-label="Alerts">
          {error ? (
            <ErrorState error={error} onRetry={load} />
          ) : alerts === null ? (
            <Loading />
          ) : alerts.length === 0 ? (
            <p class="state empty">No alerts.</p>
          ) : (
            <>
              <button type="button" onClick={markAll} disabled={!unread}>
                Mark all as read
              </button>
              <ul class="alerts">
                {alerts.map((alert) => (
                  <li key={alert.id} class={alert.read_at ? 'read' : `unread ${alert.priority}`}>
                    <strong>{alert.title}</strong>
                    <p>{alert.message}</p>
                    <small>{formatDate(alert.created_at)}</small>
                    <div class="row">
                      {alert.link && (
                        <button type="button" onClick={() => navigate(alert.link!)}>
                          Open
                        </button>
                      )}
                      {!alert.read_at && (
                        <button type="button" onClick={() => markRead(alert)}>
                          Mark as read
                        </button>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
