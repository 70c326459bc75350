import { useEffect, useState } from 'preact/hooks';
import { api, withQuery } from '../../api.js';
import type { ReprocessJob, ReprocessJobAnswer, WebhookRow } from '../../api-types.js';
import { FormError } from '../../components/field.js';
import { useRoute } from '../../router.js';

/** How often a running job's progress is read again. */
const POLL_MS = 1_000;
/** The log's filters a bulk reprocess keeps (its result is the failed rows). */
const KEPT_FILTERS = [
  'filter[tracking_number]',
  'filter[event_type]',
  'filter[date_from]',
  'filter[date_to]',
];

/** Rows a reprocess takes: a processed one already changed its shipment (ADR 0230). */
export const reprocessable = (row: WebhookRow) =>
  (row.result === 'failed' || row.result === 'ignored') && !row.reprocessing;

/** One row's Reprocess action: its stored update goes through processing again. */
export function ReprocessRow(props: { log: string; row: WebhookRow; onDone: () => void }) {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The list is read again once the reprocess is queued: the row then says it waits.
  if (props.row.reprocessing) return <span role="status">Reprocessing…</span>;
  if (!reprocessable(props.row)) return <span>—</span>;
  return (
    <>
      <button
        type="button"
        disabled={sending}
        aria-label={`Reprocess webhook ${props.row.id}`}
        onClick={async () => {
          setError(null);
          setSending(true);
          try {
            await api('POST', `${props.log}/${props.row.id}/reprocess`);
            props.onDone();
          } catch (caught) {
            setError(caught);
          } finally {
            setSending(false);
          }
        }}
      >
        Reprocess
      </button>
      {error ? <FormError error={error} /> : null}
    </>
  );
}

/**
 * "Reprocess all failed": a job over the failed rows of the log's current filters, its progress
 * read every second until it completes; then the list is read again.
 */
export function ReprocessAll(props: { log: string; onDone: () => void }) {
  const { query } = useRoute();
  const [job, setJob] = useState<ReprocessJob | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!job || job.status === 'completed') return;
    const timer = setTimeout(async () => {
      try {
        const next = (await api<ReprocessJobAnswer>('GET', `${props.log}/reprocess-jobs/${job.id}`))
          .data;
        setJob(next);
        if (next.status === 'completed') props.onDone();
      } catch (caught) {
        setError(caught);
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job]);
  const running = job !== null && job.status !== 'completed';
  return (
    <div class="row wrap">
      <button
        type="button"
        disabled={running}
        onClick={async () => {
          setError(null);
          const filters: Record<string, string> = { 'filter[result]': 'failed' };
          for (const param of KEPT_FILTERS) filters[param] = query.get(param) ?? '';
          try {
            setJob(
              (await api<ReprocessJobAnswer>('POST', withQuery(`${props.log}/reprocess`, filters)))
                .data,
            );
          } catch (caught) {
            setError(caught);
          }
        }}
      >
        Reprocess all failed
      </button>
      {job ? (
        <p role="status" data-testid="reprocess-progress">
          <progress max={Math.max(job.total, 1)} value={job.done} />{' '}
          {job.status === 'completed'
            ? `Done: ${job.done} of ${job.total} reprocessed.`
            : `Reprocessing: ${job.done} of ${job.total}…`}
        </p>
      ) : null}
      {error ? <FormError error={error} /> : null}
    </div>
  );
}
