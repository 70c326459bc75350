import type { Connection } from 'mongoose';
import { isDuplicateKeyError, TenantScopedRepository } from '@inventory/platform';
import {
  appliedKey,
  appliedUpdateModel,
  RETIRED_APPLIED_UPDATE_INDEXES,
  type AppliedUpdate,
  type AppliedUpdateDocument,
} from './applied-update.js';

export class AppliedUpdateRepository extends TenantScopedRepository<AppliedUpdateDocument> {
  constructor(connection: Connection) {
    super(appliedUpdateModel(connection));
  }

  /** Drops the retired indexes still present; answers the names dropped. */
  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_APPLIED_UPDATE_INDEXES);
  }

  async find(
    tenantId: string,
    webhookEventId: number,
    generation = 0,
  ): Promise<AppliedUpdateDocument | null> {
    return (
      (await this.findByIds(tenantId, [{ webhookEventId, generation }])).get(
        appliedKey(webhookEventId, generation),
      ) ?? null
    );
  }

  /**
   * The recorded answers among `keys` (an event and its generation), by `appliedKey` (one read
   * for a batch). A row without `generation` (written before generations) is generation 0.
   */
  async findByIds(
    tenantId: string,
    keys: Array<{ webhookEventId: number; generation?: number }>,
  ): Promise<Map<string, AppliedUpdateDocument>> {
    if (keys.length === 0) return new Map();
    const wanted = new Set(keys.map((key) => appliedKey(key.webhookEventId, key.generation)));
    // Through the driver, scoped to the tenant: mongoose's query building showed in the profile.
    const found = (await this.driverCollection()
      .find(
        this.scope(tenantId, {
          webhook_event_id: { $in: [...new Set(keys.map((key) => key.webhookEventId))] },
        }) as object,
      )
      .toArray()) as AppliedUpdateDocument[];
    return new Map(
      found
        .map((answer) => ({ ...answer, generation: answer.generation ?? 0 }))
        .map((answer) => [appliedKey(answer.webhook_event_id, answer.generation), answer] as const)
        .filter(([key]) => wanted.has(key)),
    );
  }

  /**
   * Records a batch's first answers in one unordered insert; where a concurrent call recorded
   * one first, that stored answer is the one returned (as `record` does for one).
   */
  async recordMany(tenantId: string, answers: AppliedUpdate[]): Promise<AppliedUpdate[]> {
    if (answers.length === 0) return [];
    const createdAt = new Date();
    try {
      await this.driverCollection().insertMany(
        answers.map((answer) => documentOf(tenantId, answer, createdAt)),
        { ordered: false },
      );
      return answers;
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
    }
    const stored = await this.findByIds(
      tenantId,
      answers.map((answer) => ({
        webhookEventId: answer.webhook_event_id,
        generation: answer.generation,
      })),
    );
    return answers.map(
      (answer) => stored.get(appliedKey(answer.webhook_event_id, answer.generation)) ?? answer,
    );
  }

  /** Records the first answer; a concurrent duplicate keeps the one already stored. */
  async record(tenantId: string, answer: AppliedUpdate): Promise<AppliedUpdate> {
    try {
      // Through the driver: every field is set here, so mongoose's casting, validation and save
      // hooks only cost CPU on every webhook (they showed in the profile, ADR 0224).
      await this.driverCollection().insertOne(documentOf(tenantId, answer, new Date()));
      return answer;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return (await this.find(tenantId, answer.webhook_event_id, answer.generation)) ?? answer;
    }
  }
}

const documentOf = (
  tenantId: string,
  answer: AppliedUpdate,
  createdAt: Date,
): AppliedUpdateDocument => ({
  webhook_event_id: answer.webhook_event_id,
  generation: answer.generation ?? 0,
  integration_instance_id: answer.integration_instance_id,
  outcome: answer.outcome,
  status_from: answer.status_from ?? '',
  status_to: answer.status_to ?? '',
  tracking_id: answer.tracking_id ?? 0,
  tenant_id: tenantId,
  created_at: createdAt,
});

/** Every failed row of a bulk insert was a duplicate key (a bulk error's own code is its first row's). */
function onlyDuplicateKeys(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  if (!Array.isArray(writeErrors) || writeErrors.length === 0) return isDuplicateKeyError(error);
  return (writeErrors as Array<{ code?: number; err?: { code?: number } }>).every(
    (writeError) => (writeError.code ?? writeError.err?.code) === 11000,
  );
}
