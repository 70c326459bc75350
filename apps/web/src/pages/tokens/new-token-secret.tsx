import { useState } from 'preact/hooks';

/** The plaintext token, shown once: it is never returned again. */
export function NewTokenSecret(props: { name: string; token: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.token);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div class="secret" role="region" aria-label="Your new token">
      <h2>Copy your new token “{props.name}” now</h2>
      <p class="warning">
        <strong>This is the only time it is shown.</strong> Store it somewhere safe; if you lose it,
        revoke it and create another.
      </p>
      <div class="row">
        <input
          readOnly
          aria-label="New token"
          value={props.token}
          onFocus={(event) => (event.target as HTMLInputElement).select()}
          data-testid="new-token"
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Copy failed: select the token and copy it by hand.'
            : ''}
      </p>
      <button type="button" onClick={props.onDismiss}>
        I have saved it
      </button>
    </div>
  );
}
