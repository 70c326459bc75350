/**
 * Polls the gateway's /readyz until every part is up (`status: ready`; a `degraded` gateway
 * already answers 200, but the launcher waits for the whole system), reporting what is still down.
 */
export async function waitForReady(
  gatewayUrl: string,
  timeoutMs: number,
  onWaiting: (detail: string) => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastDetail = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${gatewayUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      const body = (await response.json()) as { status?: string; checks?: Record<string, boolean> };
      if (response.status === 200 && body.status === 'ready') return;
      const down = Object.entries(body.checks ?? {})
        .filter(([, ok]) => !ok)
        .map(([name]) => name);
      lastDetail = `waiting for ${down.join(', ') || 'readiness'}`;
    } catch {
      lastDetail = 'waiting for the gateway to listen';
    }
    onWaiting(lastDetail);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the system was not ready within ${timeoutMs} ms (${lastDetail})`);
}
