import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { NewToken, RegeneratedTokenAnswer, Token } from '../../api-types.js';
import { FieldError, FormError } from '../../components/field.js';
import { messagesFor } from '../../messages.js';
import { EXPIRY_PRESETS } from './scopes.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Regenerate: the same token (name, scopes, allowlist, limit, history) with a new secret and a
 * new expiry. The old secret stops working at once, so the form says so before it is sent.
 */
export function RegenerateForm(props: {
  token: Token;
  onDone: (regenerated: NewToken) => void;
  onCancel: () => void;
}) {
  const [preset, setPreset] = useState('30');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => select.current?.focus(), []);
  const expiresAt =
    preset === 'never' ? undefined : new Date(Date.now() + Number(preset) * DAY_MS).toISOString();

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<RegeneratedTokenAnswer>(
        'POST',
        `/api/personal-access-tokens/${props.token.id}/regenerate`,
        expiresAt ? { expires_at: expiresAt } : {},
      );
      props.onDone(answer.data);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} noValidate aria-label="Regenerate token">
      <h2>Regenerate “{props.token.name}”</h2>
      <p class="warning">
        A new secret replaces the current one: anything still using the current token stops working
        at once. Name, scopes, IP allowlist, rate limit and history stay.
      </p>
      <div class="field">
        <label for="regenerate-expiration">New expiration</label>
        <select
          ref={select}
          id="regenerate-expiration"
          name="expiration"
          value={preset}
          aria-describedby="regenerate-expiration-hint"
          onChange={(event) => setPreset((event.target as HTMLSelectElement).value)}
        >
          {EXPIRY_PRESETS.map((days) => (
            <option key={days} value={String(days)}>
              {days} days
            </option>
          ))}
          <option value="never">No expiration</option>
        </select>
        <p class="hint" id="regenerate-expiration-hint">
          {expiresAt
            ? `The new token will expire on ${new Date(expiresAt).toLocaleDateString(undefined, { dateStyle: 'full' })}.`
            : 'A token without an expiration works until it is revoked. Prefer one that expires.'}
        </p>
        <FieldError
          id="regenerate-expiration-error"
          messages={messagesFor(error?.fieldErrors, 'expires_at')}
        />
      </div>
      {error && <FormError error={error} fields={['expires_at']} />}
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Regenerating…' : 'Regenerate token'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
