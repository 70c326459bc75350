import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type {
  HealthWindow,
  RotatedSecretAnswer,
  SubscriptionAnswer,
  SubscriptionHealthAnswer,
} from '../../api-types.js';
import { ConfirmButton, formatDate } from '../../components/confirm.js';
import { CopyButton } from '../../components/copy-button.js';
import { FormError } from '../../components/field.js';
import { Time } from '../../components/time.js';
import { Link } from '../../components/link.js';
import { ErrorState, Loading, useLoad } from '../../components/states.js';
import { navigate } from '../../router.js';
import { Deliveries } from './delivery-log.js';
import { RecoverPanel } from './recover-panel.js';
import { SecretOnce, SubscriptionForm } from './subscription-form.js';

const SWITCHED_OFF: Record<string, string> = {
  gone: 'Switched off: the receiver answered 410 Gone.',
  consecutive_failures: 'Switched off after 25 failed deliveries in a row.',
};

/** One window's figures: success rate, p95 latency and the last failure with its time. */
function HealthWindowFacts(props: { label: string; testId: string; window: HealthWindow }) {
  const { window: w } = props;
  const failure = w.last_failure;
  return (
    <>
      <dt>Success rate, {props.label}</dt>
      <dd data-testid={props.testId}>
        {w.success_rate === null
          ? 'no attempts'
          : `${Math.round(w.success_rate * 100)}% of ${w.attempts} attempts`}
      </dd>
      <dt>p95 latency, {props.label}</dt>
      <dd>{w.p95_latency_ms === null ? 'no responses' : `${w.p95_latency_ms} ms`}</dd>
      <dt>Last failure, {props.label}</dt>
      <dd class={failure ? 'bad' : undefined}>
        {failure ? (
          <>
            <Time value={failure.attempted_at} /> · {failure.response_status ?? 'no response'}
            {failure.error ? ` — ${failure.error}` : ''} · delivery {failure.delivery_id}
          </>
        ) : (
          'none'
        )}
      </dd>
    </>
  );
}

/**
 * How the subscription is doing, as Svix's portal shows it: on or off and why, failures in a row,
 * and, from the service's attempt log, success rate, p95 latency and last failure over the last
 * 24 hours and 7 days (ADR 0417).
 */
function Health(props: { subscription: SubscriptionAnswer['data']; refreshKey: number }) {
  const { subscription } = props;
  const health = useLoad(
    () =>
      api<SubscriptionHealthAnswer>('GET', `/api/webhook-subscriptions/${subscription.id}/health`),
    // Read again after a test ping and after any change to the subscription.
    `health:${subscription.id}:${props.refreshKey}:${subscription.updated_at}`,
  );
  return (
    <section class="card" aria-labelledby="health-h">
      <h2 id="health-h">Health</h2>
      <dl class="facts">
        <dt>State</dt>
        <dd data-testid="subscription-state">
          {subscription.is_active
            ? 'Active'
            : subscription.deactivated_reason
              ? (SWITCHED_OFF[subscription.deactivated_reason] ??
                `Switched off (${subscription.deactivated_reason}).`)
              : 'Disabled by a user.'}
        </dd>
        <dt>Paused</dt>
        <dd data-testid="subscription-pause">
          {subscription.paused_at ? (
            <>
              since <Time value={subscription.paused_at} />, {subscription.held_count} held; resumes
              by itself <Time value={subscription.pause_expires_at} />
            </>
          ) : subscription.resuming ? (
            `resuming: ${subscription.held_count} held to send, oldest first`
          ) : (
            'no'
          )}
        </dd>
        <dt>Content filter</dt>
        <dd data-testid="subscription-filter">
          {subscription.filter ? (
            <code>{JSON.stringify(subscription.filter)}</code>
          ) : (
            'none: every event of its types'
          )}
        </dd>
        <dt>Failures in a row</dt>
        <dd class={subscription.consecutive_failures > 0 ? 'bad' : undefined}>
          {subscription.consecutive_failures}
          {subscription.consecutive_failures > 0 ? ' (25 switch it off)' : ''}
        </dd>
        {health.error ? (
          <>
            <dt>Attempts</dt>
            <dd data-testid="success-rate">unavailable</dd>
          </>
        ) : !health.data ? (
          <>
            <dt>Attempts</dt>
            <dd data-testid="success-rate">reading…</dd>
          </>
        ) : (
          <>
            <HealthWindowFacts
              label="last 24 hours"
              testId="success-rate"
              window={health.data.data.last_24h}
            />
            <HealthWindowFacts
              label="last 7 days"
              testId="success-rate-7d"
              window={health.data.data.last_7d}
            />
          </>
        )}
      </dl>
    </section>
  );
}

/** One subscription: edit, re-enable, rotate, delete, test ping, and its delivery log. */
export function SubscriptionDetail(props: { id: string }) {
  const sub = useLoad(
    () => api<SubscriptionAnswer>('GET', `/api/webhook-subscriptions/${props.id}`),
    `sub:${props.id}`,
  );
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const act = async (action: () => Promise<void>) => {
    setError(null);
    setNote('');
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    }
  };
  if (sub.error) return <ErrorState error={sub.error} onRetry={sub.reload} />;
  if (!sub.data) return <Loading />;
  const subscription = sub.data.data;
  return (
    <section>
      <p class="crumbs">
        <Link to="/webhooks">Webhooks</Link> › Subscription #{subscription.id}
      </p>
      <h1 class="url-title">
        <span>{subscription.url}</span>{' '}
        <CopyButton text={subscription.url} what="URL" label="Copy URL" />
      </h1>
      <p data-testid="subscription-summary">
        {subscription.is_active ? 'Active' : 'Disabled'}
        {subscription.paused_at ? ' (paused)' : ''} · {subscription.events.join(', ')}
        {subscription.description ? ` · ${subscription.description}` : ''}
      </p>
      {secret && <SecretOnce secret={secret} note={note} onDismiss={() => setSecret(null)} />}
      {note && !secret && (
        <p class="notice" role="status">
          {note}
        </p>
      )}
      {error ? <FormError error={error} /> : null}
      {editing ? (
        <SubscriptionForm
          subscription={subscription}
          onCancel={() => setEditing(false)}
          onDone={() => {
            setEditing(false);
            sub.reload();
          }}
        />
      ) : (
        <div class="row wrap">
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          {/* Deliveries stop while disabled (by hand, or after repeated failures): re-enable resumes. */}
          <button
            type="button"
            onClick={() =>
              act(async () => {
                await api('PATCH', `/api/webhook-subscriptions/${subscription.id}`, {
                  is_active: !subscription.is_active,
                });
                sub.reload();
              })
            }
          >
            {subscription.is_active ? 'Disable' : 'Re-enable'}
          </button>
          {/* Paused, events are held (not dropped) and sent in order on resume. */}
          <button
            type="button"
            onClick={() =>
              act(async () => {
                const action = subscription.paused_at ? 'resume' : 'pause';
                await api('POST', `/api/webhook-subscriptions/${subscription.id}/${action}`);
                setNote(
                  action === 'pause'
                    ? 'Paused: new events are held until you resume.'
                    : 'Resumed: held events are being sent, oldest first.',
                );
                sub.reload();
                setRefreshKey((key) => key + 1);
              })
            }
          >
            {subscription.paused_at ? 'Resume' : 'Pause'}
          </button>
          <button
            type="button"
            onClick={() =>
              act(async () => {
                await api('POST', `/api/webhook-subscriptions/${subscription.id}/test`);
                setNote('Test ping queued.');
                setRefreshKey((key) => key + 1);
              })
            }
          >
            Send test ping
          </button>
          <ConfirmButton
            label="Rotate secret"
            question="Rotate the signing secret?"
            confirmLabel="Yes, rotate"
            onConfirm={() =>
              act(async () => {
                const answer = await api<RotatedSecretAnswer>(
                  'POST',
                  `/api/webhook-subscriptions/${subscription.id}/rotate-secret`,
                );
                setNote(
                  `The previous secret keeps working until ${formatDate(answer.data.previous_secret_expires_at)}.`,
                );
                setSecret(answer.data.secret);
              })
            }
          />
          <ConfirmButton
            label="Delete"
            danger
            question="Delete this subscription?"
            confirmLabel="Yes, delete"
            onConfirm={() =>
              act(async () => {
                await api('DELETE', `/api/webhook-subscriptions/${subscription.id}`);
                navigate('/webhooks');
              })
            }
          />
        </div>
      )}
      <Health subscription={subscription} refreshKey={refreshKey} />
      <RecoverPanel
        subscriptionId={subscription.id}
        onStarted={() => setRefreshKey((key) => key + 1)}
      />
      <Deliveries
        id={props.id}
        refreshKey={refreshKey}
        onRefresh={() => setRefreshKey((key) => key + 1)}
      />
    </section>
  );
}
