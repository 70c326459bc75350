import { useRef, useState } from 'preact/hooks';
import {
  csvFileName,
  downloadCsv,
  fetchAllRows,
  toCsv,
  type CsvColumn,
  type ExportProgress,
} from '../csv-export.js';
import { ErrorState } from './states.js';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ExportProgress }
  | { kind: 'done'; rows: number; total: number; truncated: boolean; fileName: string }
  | { kind: 'failed'; error: unknown };

/**
 * "Export CSV" of a list as it is filtered and sorted now, every page of it: progress while the
 * pages come, a way to stop, and what was saved at the end.
 */
export function ExportCsv<Row>(props: {
  title: string;
  path: string;
  /** The list's query (filters and sort) without its page. */
  query: Record<string, string>;
  columns: CsvColumn<Row>[];
}) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const cancelled = useRef(false);
  const run = async () => {
    cancelled.current = false;
    setState({ kind: 'running', progress: { rows: 0, total: 0 } });
    try {
      const { rows, total, truncated } = await fetchAllRows<Row>(
        props.path,
        props.query,
        (progress) => setState({ kind: 'running', progress }),
        () => cancelled.current,
      );
      if (cancelled.current) return setState({ kind: 'idle' });
      const fileName = csvFileName(props.title);
      downloadCsv(fileName, toCsv(props.columns, rows));
      setState({ kind: 'done', rows: rows.length, total, truncated, fileName });
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  };
  const count = (value: number) => value.toLocaleString('en');
  const rowsOf = (value: number) => `${count(value)} ${value === 1 ? 'row' : 'rows'}`;
  return (
    <div class="export">
      {state.kind === 'running' ? (
        <button type="button" onClick={() => (cancelled.current = true)}>
          Stop export
        </button>
      ) : (
        <button type="button" onClick={run}>
          Export CSV
        </button>
      )}
      <span role="status" class="hint">
        {state.kind === 'running' && (
          <>
            <progress
              max={state.progress.total || 1}
              value={state.progress.rows}
              aria-label="Export progress"
            />{' '}
            Exporting… {count(state.progress.rows)} of {rowsOf(state.progress.total)}
          </>
        )}
        {state.kind === 'done' &&
          (state.truncated
            ? `Exported the first ${count(state.rows)} of ${rowsOf(state.total)} to ${state.fileName}: narrow the filters for the rest.`
            : `Exported ${rowsOf(state.rows)} to ${state.fileName}.`)}
      </span>
      {state.kind === 'failed' && <ErrorState error={state.error} onRetry={run} />}
    </div>
  );
}
