import { useState } from 'preact/hooks';
import { api, withQuery } from '../../api.js';
import type { Delivery, DeliveryAnswer, DeliveryPage } from '../../api-types.js';
import { formatDate } from '../../components/confirm.js';
import { FormError } from '../../components/field.js';
import { Pager } from '../../components/pager.js';
import { Async, Empty, useLoad } from '../../components/states.js';
import { setQuery, useRoute } from '../../router.js';
import { WEBHOOK_EVENT_NAMES } from '@inventory/events/browser';

const STATUSES = [
  ['pending', 'pending'],
  ['succeeded', 'succeeded'],
  ['failed', 'failed'],
  ['held', 'held (paused)'],
] as const;

/** What the log shows: a page of the list, or the one delivery asked for by its id. */
interface Listed {
  data: Delivery[];
  current_page: number;
  last_page: number;
  total: number;
}

/** The payload every attempt of one delivery sends, read when its attempts are opened. */
function Payload(props: { subscriptionId: string; deliveryId: string }) {
  const detail = useLoad(
    () =>
      api<DeliveryAnswer>(
        'GET',
        `/api/webhook-subscriptions/${props.subscriptionId}/deliveries/${props.deliveryId}`,
      ),
    `delivery:${props.subscriptionId}:${props.deliveryId}`,
  );
  return (
    <Async state={detail} label="Reading the payload" lines={2}>
      {(answer) => (
        <div class="request-payload">
          <h4>Payload</h4>
          <pre data-testid="delivery-payload">{answer.data.payload ?? '—'}</pre>
        </div>
      )}
    </Async>
  );
}

/** Each attempt: the request as sent (redacted) beside the response it got. */
function Attempt(props: { attempt: Delivery['attempts'][number] }) {
  const { attempt } = props;
  return (
    <li class="attempt">
      <div>
        <h4>Request</h4>
        {attempt.request ? (
          <pre data-testid="attempt-request">
            {`${attempt.request.method} ${attempt.request.url}\n`}
            {Object.entries(attempt.request.headers)
              .map(([name, value]) => `${name}: ${value}`)
              .join('\n')}
          </pre>
        ) : (
          <p class="hint">Not recorded for this attempt.</p>
        )}
      </div>
      <div>
        <h4>Response</h4>
        <p>
          {formatDate(attempt.attempted_at)}: {attempt.response_status ?? 'no response'} in{' '}
          {attempt.duration_ms} ms
          {attempt.error ? ` — ${attempt.error}` : ''}
        </p>
        {attempt.response_body ? <pre>{attempt.response_body}</pre> : null}
      </div>
    </li>
  );
}

/** One delivery of the log, its attempts opened on demand with the payload they sent. */
function DeliveryItem(props: {
  subscriptionId: string;
  delivery: Delivery;
  onRedeliver: () => void;
}) {
  const { delivery } = props;
  const [open, setOpen] = useState(false);
  return (
    <li class="card" data-delivery-status={delivery.status}>
      <div class="row spread">
        <strong>{delivery.event}</strong>
        <span class={`status status-${delivery.status}`}>{delivery.status}</span>
      </div>
      <small>
        {formatDate(delivery.created_at)} · <code>{delivery.delivery_id}</code>
        {delivery.next_attempt_at ? ` · next attempt ${formatDate(delivery.next_attempt_at)}` : ''}
      </small>
      <details onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
        <summary>{delivery.attempts.length} attempt(s)</summary>
        {open && (
          <Payload subscriptionId={props.subscriptionId} deliveryId={delivery.delivery_id} />
        )}
        <ol class="attempts">
          {delivery.attempts.map((attempt, index) => (
            <Attempt key={index} attempt={attempt} />
          ))}
        </ol>
      </details>
      <button type="button" onClick={props.onRedeliver}>
        Redeliver
      </button>
    </li>
  );
}

/** The delivery log: filtered by status, event type or one delivery id, newest first. */
export function Deliveries(props: { id: string; refreshKey: number; onRefresh: () => void }) {
  const { query } = useRoute();
  const page = query.get('page') ?? '1';
  const status = query.get('status') ?? '';
  const event = query.get('event') ?? '';
  const deliveryId = query.get('delivery_id') ?? '';
  const [idInput, setIdInput] = useState(deliveryId);
  const list = useLoad(
    (): Promise<Listed> =>
      deliveryId
        ? api<DeliveryAnswer>(
            'GET',
            `/api/webhook-subscriptions/${props.id}/deliveries/${encodeURIComponent(deliveryId)}`,
          ).then(
            (answer) => ({ data: [answer.data], current_page: 1, last_page: 1, total: 1 }),
            (error: unknown) => {
              if ((error as { status?: number }).status === 404)
                return { data: [], current_page: 1, last_page: 1, total: 0 };
              throw error;
            },
          )
        : api<DeliveryPage>(
            'GET',
            withQuery(`/api/webhook-subscriptions/${props.id}/deliveries`, {
              page,
              status,
              event,
              per_page: 20,
            }),
          ),
    `deliveries:${props.id}:${page}:${status}:${event}:${deliveryId}:${props.refreshKey}`,
  );
  const [error, setError] = useState<unknown>(null);
  const redeliver = async (delivery: Delivery) => {
    setError(null);
    try {
      await api(
        'POST',
        `/api/webhook-subscriptions/${props.id}/deliveries/${delivery.delivery_id}/redeliver`,
      );
      props.onRefresh();
    } catch (caught) {
      setError(caught);
    }
  };
  const choose = (name: string) => (changed: Event) =>
    setQuery({ [name]: (changed.target as HTMLSelectElement).value, page: undefined });
  return (
    <section aria-label="Deliveries">
      <h2>Delivery log</h2>
      <div class="row">
        <label class="inline">
          Status{' '}
          <select value={status} onChange={choose('status')} disabled={Boolean(deliveryId)}>
            <option value="">any</option>
            {STATUSES.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label class="inline">
          Event{' '}
          <select value={event} onChange={choose('event')} disabled={Boolean(deliveryId)}>
            <option value="">any</option>
            {[...WEBHOOK_EVENT_NAMES, 'ping'].map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <form
          class="inline"
          role="search"
          onSubmit={(submitted) => {
            submitted.preventDefault();
            setQuery({ delivery_id: idInput.trim() || undefined, page: undefined });
          }}
        >
          <label class="inline">
            Delivery id{' '}
            <input
              value={idInput}
              onInput={(typed) => setIdInput((typed.target as HTMLInputElement).value)}
              placeholder="UUID"
              size={38}
            />
          </label>{' '}
          <button type="submit">Find</button>
          {deliveryId && (
            <button
              type="button"
              onClick={() => {
                setIdInput('');
                setQuery({ delivery_id: undefined });
              }}
            >
              Show all
            </button>
          )}
        </form>
        {/* Reads the log and the health above it again. */}
        <button type="button" onClick={props.onRefresh}>
          Refresh
        </button>
      </div>
      {error ? <FormError error={error} /> : null}
      <Async state={list}>
        {(rows) =>
          rows.data.length === 0 ? (
            <Empty>
              {deliveryId ? 'No delivery of this subscription has that id.' : 'No deliveries yet.'}
            </Empty>
          ) : (
            <>
              <ul class="deliveries">
                {rows.data.map((delivery) => (
                  <DeliveryItem
                    key={delivery.delivery_id}
                    subscriptionId={props.id}
                    delivery={delivery}
                    onRedeliver={() => void redeliver(delivery)}
                  />
                ))}
              </ul>
              <Pager
                page={rows.current_page}
                lastPage={rows.last_page}
                total={rows.total}
                onPage={(next) => setQuery({ page: String(next) })}
              />
            </>
          )
        }
      </Async>
    </section>
  );
}
