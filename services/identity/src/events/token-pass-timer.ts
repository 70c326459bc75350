import type { Logger } from '@inventory/platform';

/** One kind of token pass: a name for its log lines, and one run that answers what it did. */
export interface TokenPass {
  name: string;
  execute(): Promise<number>;
}

/**
 * Runs the token passes every `intervalMs` on this replica, one after another (the unused-token
 * expiry of ADR 0122, then the expiry alerts of ADR 0118; each round after the last one ended, so
 * two never overlap here); other replicas run theirs, and the claims on the tokens keep every
 * alert and expiry single. Answers the stop, which waits for a round in flight.
 */
export function startTokenPasses(
  passes: readonly TokenPass[],
  intervalMs: number,
  logger: Logger,
): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;
  const schedule = () => {
    if (!stopped) timer = setTimeout(run, intervalMs);
  };
  const runPass = (pass: TokenPass) =>
    pass.execute().then(
      (done) => {
        if (done > 0) logger.info({ done, pass: pass.name }, 'token pass acted');
      },
      (error: unknown) => logger.warn({ err: error, pass: pass.name }, 'token pass failed'),
    );
  const run = () => {
    round = passes.reduce<Promise<void>>(
      (previous, pass) => previous.then(() => runPass(pass)),
      Promise.resolve(),
    );
    void round.finally(schedule);
  };
  if (intervalMs > 0) schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await round;
  };
}
