import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

/**
 * What is being loaded, drawn as grey placeholder lines in the shape of what comes (a table's
 * rows, a card's lines), so the page does not jump when it arrives; the label is for screen
 * readers. `lines` is how many placeholders (default 3).
 */
export function Loading(props: { label?: string; lines?: number }) {
  const lines = Array.from({ length: props.lines ?? 3 }, (_, index) => index);
  return (
    <div class="state loading skeleton" role="status" aria-live="polite" aria-busy="true">
      <span class="visually-hidden">{props.label ?? 'Loading…'}</span>
      {lines.map((line) => (
        <span key={line} class="skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}

export function ErrorState(props: { error: unknown; onRetry?: () => void }) {
  const message =
    props.error instanceof ApiError
      ? props.error.status === 404
        ? 'Not found. It may have been removed, or this feature is not available yet.'
        : props.error.message
      : 'Something went wrong. Check your connection and try again.';
  return (
    <div class="state error" role="alert">
      <p>{message}</p>
      {props.onRetry && (
        <button type="button" onClick={props.onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="state empty">{props.children}</p>;
}

export interface Loaded<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads on mount and whenever `key` changes; `reload()` fetches again. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
    // `key` names everything `load` depends on.
  }, [key, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

/** Renders loading / error / content for a Loaded value. */
export function Async<T>(props: {
  state: Loaded<T>;
  children: (data: T) => ComponentChildren;
  /** Placeholder lines while it loads (a list: about its page's rows). */
  lines?: number;
  /** What loads, for screen readers (default "Loading…"). */
  label?: string;
}) {
  const { state } = props;
  if (state.error) return <ErrorState error={state.error} onRetry={state.reload} />;
  if (state.data === undefined) return <Loading lines={props.lines} label={props.label} />;
  return <>{props.children(state.data)}</>;
}
