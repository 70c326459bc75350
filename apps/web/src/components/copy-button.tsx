import { useState } from 'preact/hooks';

/**
 * Copies `text` and says so beside the button (a status region, so a screen reader hears it
 * too); when the browser refuses, it says how to copy by hand.
 */
export function CopyButton(props: { text: string; label?: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span class="copy">
      <button type="button" onClick={copy}>
        {state === 'copied' ? 'Copied' : (props.label ?? 'Copy')}
      </button>
      <span role="status" class="hint">
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? `Copy failed: select the ${props.what ?? 'text'} and copy it by hand.`
            : ''}
      </span>
    </span>
  );
}
