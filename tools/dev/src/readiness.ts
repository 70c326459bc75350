/** Polls the gateway's /readyz until it answers 200, reporting what is still down. */
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
      if (response.status === 200) return;
      const body = (await response.json()) as { checks?: Record<string, boolean> };
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
