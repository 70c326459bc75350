import { useEffect, useRef } from 'preact/hooks';
import { CopyButton } from '../../components/copy-button.js';

/** The plaintext token, shown once: it is never returned again. */
export function NewTokenSecret(props: { name: string; token: string; onDismiss: () => void }) {
  // Focus lands on the token itself (selected), where the person goes next: copying it.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <div class="secret" role="region" aria-label="Your new token">
      <h2>Copy your new token “{props.name}” now</h2>
      <p class="warning">
        <strong>This is the only time it is shown.</strong> Store it somewhere safe; if you lose it,
        revoke it and create another.
      </p>
      <div class="row">
        <input
          ref={input}
          readOnly
          aria-label="New token"
          value={props.token}
          onFocus={(event) => (event.target as HTMLInputElement).select()}
          data-testid="new-token"
        />
        <CopyButton text={props.token} what="token" />
      </div>
      <button type="button" onClick={props.onDismiss}>
        I have saved it
      </button>
    </div>
  );
}
