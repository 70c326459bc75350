import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

export function Loading(props: { label?: string }) {
  return (
    <p class="state loading" role="status" aria-live="polite">
      {props.label ?? 'Loading…'}
    </p>
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
export function Async<T>(props: { state: Loaded<T>; children: (data: T) => ComponentChildren }) {
  const { state } = props;
  if (state.error) return <ErrorState error={state.error} onRetry={state.reload} />;
  if (state.data === undefined) return <Loading />;
  return <>{props.children(state.data)}</>;
}
