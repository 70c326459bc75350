import { formatDate } from '../../components/confirm.js';
import { expiryBadge } from './scopes.js';

/** "expires in 12 days" (the date on hover), "expired", "never expires". */
export function ExpiryBadge(props: { expiresAt: string | null }) {
  const badge = expiryBadge(props.expiresAt);
  return (
    <span
      class={`badge expiry-${badge.level}`}
      title={props.expiresAt ? formatDate(props.expiresAt) : undefined}
    >
      {badge.text}
    </span>
  );
}
