import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import { useRetryKey, type Attempt } from '../../retry-key.js';
import { CopyButton } from '../../components/copy-button.js';
import { errorFor, FieldError, FormError, TextField } from '../../components/field.js';
import { WEBHOOK_EVENT_CATALOG, WEBHOOK_EVENT_NAMES } from '@inventory/events/browser';
import type { NewSubscriptionAnswer, Subscription, SubscriptionAnswer } from '../../api-types.js';

const createSubscription = ({ body, key }: Attempt<Record<string, unknown>>) =>
  api<NewSubscriptionAnswer>('POST', '/api/webhook-subscriptions', body, { idempotencyKey: key });

/** Create (the answer carries the secret, shown once) or edit url, events and description. */
export function SubscriptionForm(props: {
  subscription?: Subscription;
  onDone: (saved: Subscription & Partial<NewSubscriptionAnswer['data']>) => void;
  onCancel: () => void;
}) {
  const editing = props.subscription;
  const [url, setUrl] = useState(editing?.url ?? '');
  const [events, setEvents] = useState<string[]>(editing?.events ?? []);
  const [description, setDescription] = useState(editing?.description ?? '');
  const [filter, setFilter] = useState(
    editing?.filter ? JSON.stringify(editing.filter, null, 2) : '',
  );
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  // Text that is not JSON never leaves the page: it is named here, as the API would name it.
  const [filterNotJson, setFilterNotJson] = useState(false);
  const filterValue = parseFilter(filter);
  const errors = filterNotJson ? { filter: ['The filter must be JSON.'] } : error?.fieldErrors;
  const retryKey = useRetryKey<Record<string, unknown>>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setFilterNotJson(filterValue === INVALID);
    if (filterValue === INVALID) return;
    setBusy(true);
    setError(null);
    const body = {
      url,
      events,
      description: description === '' ? null : description,
      filter: filterValue,
    };
    try {
      const answer = editing
        ? await api<SubscriptionAnswer>('PATCH', `/api/webhook-subscriptions/${editing.id}`, body)
        : await createSubscription(
            retryKey(body, () => ({
              ...body,
              ...(description === '' ? { description: undefined } : {}),
            })),
          );
      props.onDone(answer.data);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    } finally {
      setBusy(false);
    }
  };
  const eventsError = errorFor(errors, 'events');
  return (
    <form
      class="card"
      onSubmit={submit}
      noValidate
      aria-label={editing ? 'Edit subscription' : 'New subscription'}
    >
      <h2>{editing ? 'Edit subscription' : 'New webhook subscription'}</h2>
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        value={url}
        onInput={setUrl}
        errors={errors}
        required
        hint="HTTPS address that receives signed POST requests."
      />
      <fieldset>
        <legend>Events</legend>
        <div class="event-choices">
          {WEBHOOK_EVENT_NAMES.map((name) => (
            <div key={name}>
              <label class="check">
                <input
                  type="checkbox"
                  name="events"
                  value={name}
                  aria-describedby={`event-${name}`}
                  checked={events.includes(name)}
                  onChange={(event) =>
                    setEvents(
                      (event.target as HTMLInputElement).checked
                        ? [...events, name]
                        : events.filter((item) => item !== name),
                    )
                  }
                />
                <code>{name}</code>
              </label>
              <p class="hint" id={`event-${name}`}>
                When {WEBHOOK_EVENT_CATALOG[name].firesWhen}. Needs{' '}
                <code>{WEBHOOK_EVENT_CATALOG[name].scope}</code>.
              </p>
            </div>
          ))}
        </div>
        <FieldError id="events-error" message={eventsError} />
      </fieldset>
      <TextField
        label="Description (optional)"
        name="description"
        value={description}
        onInput={setDescription}
        errors={errors}
      />
      <TextField
        label="Content filter (optional)"
        name="filter"
        value={filter}
        onInput={setFilter}
        errors={errors}
        multiline
        hint={
          <>
            Send only events whose data matches, as JSON, for example{' '}
            <code>{'{"warehouse_id": 3, "sku": {"$startsWith": "ACME-"}}'}</code>. Operators:{' '}
            <code>
              $eq $ne $gt $gte $lt $lte $in $nin $exists $startsWith $endsWith $contains $not $and
              $or
            </code>
            . Empty: every event.
          </>
        }
      />
      {error && !filterNotJson && (
        <FormError error={error} fields={['url', 'events', 'description', 'filter']} />
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {editing ? 'Save changes' : 'Create subscription'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const INVALID = Symbol('invalid JSON');

/** The filter as the API takes it: null when empty, the parsed JSON, or INVALID. */
function parseFilter(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return INVALID;
  }
}

/** A signing secret, shown once (on create and on rotation). */
export function SecretOnce(props: { secret: string; note?: string; onDismiss: () => void }) {
  return (
    <div class="secret" role="region" aria-label="Signing secret">
      <p class="warning">
        <strong>Copy the signing secret now; it is shown only once.</strong> {props.note}
      </p>
      <div class="row">
        <input
          readOnly
          aria-label="Signing secret"
          value={props.secret}
          data-testid="signing-secret"
        />
        <CopyButton text={props.secret} what="secret" />
      </div>
      <button type="button" onClick={props.onDismiss}>
        I have saved it
      </button>
    </div>
  );
}
