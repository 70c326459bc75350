import { storedRows } from './stored-rows.js';

/**
 * The inbound webhooks a fault run posted, and what the system kept of each. A row stored after
 * its push was refused (the answer went before the write landed) is kept marked as such
 * (`dedupe_key` `late:<id>`, ADR 0743) and is not processed: it does not count as accepted.
 */
export class InboundLedger {
  private readonly sent: Array<{ number: string; phase: string; acknowledged: boolean }> = [];

  record(number: string, phase: string, acknowledged: boolean): void {
    this.sent.push({ number, phase, acknowledged });
  }

  /** Per push: `lost` (acknowledged, no row) or `doubled` (refused, yet stored as accepted). */
  async verify(mongoUrl: string) {
    const rows = await storedRows(mongoUrl, 'webhook_ingest', 'webhook_events', [
      'raw_body',
      'dedupe_key',
    ]);
    const accepted = rows
      .filter((row) => !String(row.dedupe_key).startsWith('late:'))
      .map((row) => String(row.raw_body));
    const stored = rows.map((row) => String(row.raw_body));
    return this.sent.map((push) => ({
      ...push,
      lost: push.acknowledged && !stored.some((body) => body.includes(push.number)),
      doubled: !push.acknowledged && accepted.some((body) => body.includes(push.number)),
    }));
  }
}
