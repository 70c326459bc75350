import type { TrackingRow } from '../../api-types.js';
import { label } from './instance.js';

/** A row's delivery status in the API's own label and colour (`delivery_status_color`). */
export function StatusBadge(props: { row: TrackingRow }) {
  const { row } = props;
  return (
    <span
      class={`status badge color-${row.delivery_status_color || 'gray'}`}
      data-status={row.delivery_status}
    >
      {row.delivery_status_label || label(row.delivery_status)}
    </span>
  );
}
