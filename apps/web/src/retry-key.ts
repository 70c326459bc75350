import { useRef } from 'preact/hooks';
import { newIdempotencyKey } from './api.js';

/** A creating request as a form sends it, with the `Idempotency-Key` it goes with. */
export interface Attempt<T> {
  body: T;
  key: string;
}

/**
 * One `Idempotency-Key` per thing a form asks to create (ADR 0119): while the form's inputs are
 * unchanged, submitting again (after an answer lost on the way, say) sends the body first built
 * and the same key, so the gateway answers the first answer, its one-time secret included,
 * instead of creating a second thing. The body is kept rather than rebuilt because it may hold
 * values computed at the submit (an expiry "in 30 days"). Changed inputs: a new body and key.
 */
export function useRetryKey<T>(): (inputs: unknown, build: () => T) => Attempt<T> {
  const attempt = useRef<{ inputs: string; body: T; key: string } | null>(null);
  return (inputs, build) => {
    const seen = JSON.stringify(inputs);
    if (attempt.current?.inputs !== seen)
      attempt.current = { inputs: seen, body: build(), key: newIdempotencyKey() };
    return attempt.current;
  };
}
