import { useEffect, useRef, useState } from 'preact/hooks';

/** A button that asks "are you sure?" in place (no window.confirm), then runs the action. */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<void> | void;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);
  // Focus moves to the confirmation once, when it opens, so Enter confirms and Tab reaches Cancel;
  // on Cancel it goes back to the button that asked, where the person was.
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
    else if (returnFocus) {
      trigger.current?.focus();
      setReturnFocus(false);
    }
  }, [asking]);
  if (!asking)
    return (
      <button
        type="button"
        class={props.danger ? 'danger' : undefined}
        ref={trigger}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  return (
    <span class="confirm" role="group" aria-label={props.question}>
      <span>{props.question}</span>
      <button
        type="button"
        class="danger"
        disabled={busy}
        ref={confirmButton}
        onClick={async () => {
          setBusy(true);
          try {
            await props.onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {props.confirmLabel}
      </button>
      <button
        type="button"
        onClick={() => {
          setReturnFocus(true);
          setAsking(false);
        }}
      >
        Cancel
      </button>
    </span>
  );
}

export function formatDate(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : '—';
}
