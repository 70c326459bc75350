import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { RecoverJobAnswer } from '../../api-types.js';
import { FormError } from '../../components/field.js';

/** `datetime-local` gives local time without a zone; the API wants ISO 8601 with one. */
const isoOf = (local: string) => new Date(local).toISOString();

/**
 * Recover (ADR 0415): send again every failed delivery since a time, as a job paced by the
 * per-tenant cap; its progress is read again with Refresh.
 */
export function RecoverPanel(props: { subscriptionId: number; onStarted: () => void }) {
  const [since, setSince] = useState('');
  const [job, setJob] = useState<RecoverJobAnswer['data'] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    }
  };
  const path = `/api/webhook-subscriptions/${props.subscriptionId}/recover`;
  return (
    <section class="card" aria-labelledby="recover-h">
      <h2 id="recover-h">Recover failed deliveries</h2>
      <form
        class="row wrap"
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            const started = await api<RecoverJobAnswer>('POST', path, { since: isoOf(since) });
            setJob(started.data);
            props.onStarted();
          });
        }}
      >
        <label class="inline">
          Failed since{' '}
          <input
            type="datetime-local"
            required
            value={since}
            onInput={(event) => setSince((event.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Recover</button>
        {job ? (
          <button
            type="button"
            onClick={() =>
              run(async () => {
                setJob((await api<RecoverJobAnswer>('GET', `${path}/${job.id}`)).data);
                props.onStarted();
              })
            }
          >
            Refresh progress
          </button>
        ) : null}
      </form>
      {error ? <FormError error={error} /> : null}
      {job ? (
        <p role="status" data-testid="recover-progress">
          {job.status === 'completed' ? 'Completed' : 'Running'}: {job.found} found, {job.sent} sent
          again, {job.succeeded} succeeded, {job.failed} failed, {job.pending} pending.
        </p>
      ) : null}
    </section>
  );
}
