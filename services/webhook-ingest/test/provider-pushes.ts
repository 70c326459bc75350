import { signBody, startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';

export const SIM_KEY = 'sim_webhook_key_0001';

export interface Push {
  body: string;
  sign: string;
}

/**
 * Real provider pushes (DESIGN §8) from the simulator: a number registered with
 * it, moved along its script, and the push body the simulator would send,
 * captured without sending it anywhere useful.
 */
export class ProviderPushes {
  private constructor(private readonly sim: ProviderSimHandle) {}

  static async start(): Promise<ProviderPushes> {
    const sim = await startProviderSim({
      keys: [{ key: SIM_KEY }],
      rateLimitPerSecond: 10_000,
      webhookMaxAttempts: 1,
      webhookRetryDelayMs: 1,
    });
    return new ProviderPushes(sim);
  }

  async register(number: string): Promise<void> {
    const response = await fetch(`${this.sim.url}/track/v2.2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', '17token': SIM_KEY },
      body: JSON.stringify([{ number }]),
    });
    const body = (await response.json()) as { data: { accepted: unknown[] } };
    if (body.data.accepted.length !== 1) throw new Error(`could not register ${number}`);
  }

  advance(number: string): void {
    this.sim.advance(number, SIM_KEY);
  }

  /** The push the simulator sends for the number's current state (nothing listens at port 9). */
  async push(number: string, event: 'TRACKING_UPDATED' | 'TRACKING_STOPPED' = 'TRACKING_UPDATED') {
    const { body } = await this.sim.pushWebhook({
      url: 'http://127.0.0.1:9/',
      number,
      event,
      apiKey: SIM_KEY,
    });
    return { body, sign: signBody(body, SIM_KEY) };
  }

  /** A number registered and moved `steps` along its script, and its push. */
  async signed(number: string, steps = 1, event?: 'TRACKING_STOPPED'): Promise<Push> {
    await this.register(number);
    for (let step = 0; step < steps; step++) this.advance(number);
    return this.push(number, event);
  }

  stop(): Promise<void> {
    return this.sim.stop();
  }
}
