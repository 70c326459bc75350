import { storedRows } from './stored-rows.js';

/** What one push came to once the provider had sent it again until acknowledged. */
export interface PushOutcome {
  number: string;
  phase: string;
  /** Answered 2xx the first time. */
  acknowledged: boolean;
  /** Acknowledged (first time or on a retry) and no row taken to be processed. */
  lost: boolean;
  /** More than one row taken to be processed: the retry not recognised as the same push. */
  doubled: boolean;
  /**
   * Refused, yet its first row was processed (the answer lost after the write: a frozen
   * webhook-ingest, ADR 0743) and the retry shown as its duplicate: the documented case.
   */
  answerLost: boolean;
}

/**
 * The inbound webhooks a fault run posted, sent again as the provider does for each one not
 * answered 2xx, and what the system kept of each. A row stored after its push was refused (the
 * store stalled, ADR 0743) is kept with `dedupe_key` `late:<id>` and not processed; a retry of
 * a push already stored is kept as a duplicate (`duplicate_of`), not processed either.
 */
export class InboundLedger {
  private readonly sent: Array<{ number: string; phase: string; acknowledged: boolean }> = [];
  private readonly retriedAcknowledged = new Set<string>();

  record(number: string, phase: string, acknowledged: boolean): void {
    this.sent.push({ number, phase, acknowledged });
  }

  /** Sends each refused push again, as the provider would, until it is answered 2xx. */
  async redeliverRefused(post: (number: string) => Promise<number>, attempts = 20): Promise<void> {
    for (const push of this.sent.filter((candidate) => !candidate.acknowledged)) {
      for (let attempt = 0; attempt < attempts; attempt += 1) {
        const status = await post(push.number);
        if (status >= 200 && status < 300) {
          this.retriedAcknowledged.add(push.number);
          break;
        }
        if (status !== 503) throw new Error(`the retry of ${push.number} answered ${status}`);
      }
    }
  }

  async verify(mongoUrl: string): Promise<PushOutcome[]> {
    const rows = (
      await storedRows(mongoUrl, 'webhook_ingest', 'webhook_events', [
        'raw_body',
        'dedupe_key',
        'duplicate_of',
      ])
    ).map((row) => ({
      body: String(row.raw_body),
      processed: !String(row.dedupe_key).startsWith('late:') && row.duplicate_of == null,
      duplicate: row.duplicate_of != null,
    }));
    return this.sent.map((push) => {
      const own = rows.filter((row) => row.body.includes(push.number));
      const processed = own.filter((row) => row.processed).length;
      const everAcknowledged = push.acknowledged || this.retriedAcknowledged.has(push.number);
      return {
        ...push,
        lost: everAcknowledged && processed === 0,
        doubled: processed > 1,
        answerLost: !push.acknowledged && processed === 1 && own.some((row) => row.duplicate),
      };
    });
  }
}
