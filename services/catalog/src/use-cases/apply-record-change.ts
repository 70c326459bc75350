import type { Logger } from '@inventory/platform';
import { isRecordId, versionOf } from '../domain/record-version.js';
import type {
  Snapshot,
  VersionedChange,
  VersionedRepository,
  VersionedRow,
} from '../store/versioned-repository.js';

/** One event of a record: created and updated carry the full record, deleted only its id. */
export type RecordChange<Input> =
  | { kind: 'snapshot'; record: Input | undefined; version: number }
  | { kind: 'deleted'; id: number; version: number };

/** A change as its event brought it: the event's tenant and time beside the record's change. */
export interface ReceivedChange<Input> {
  tenantId: string;
  occurredAt: Date;
  change: RecordChange<Input>;
}

/** What tells one kind of catalog record from another: its domain check and its names in logs. */
export interface RecordKind<Input, Row extends VersionedRow> {
  /** Logged as `<name> event dropped`. */
  name: string;
  /** The event field a delete names its record by, logged when it is not a record id. */
  idField: string;
  /** Logged as `the event has no <noun>` for a snapshot event without its record. */
  noun: string;
  toSnapshot(record: Input, occurredAt: Date): { snapshot: Snapshot<Row> } | { problems: string[] };
}

/**
 * Applies events of a record (a product, a purchase invoice) to its read model. Older-than-held
 * events are ignored and deletes leave tombstones, so redelivery and any arrival order converge
 * on the newest state. A record that can never be shown is logged and dropped (retrying cannot
 * fix it) without holding back the others.
 */
export class ApplyRecordChange<Input, Row extends VersionedRow> {
  constructor(
    private readonly kind: RecordKind<Input, Row>,
    private readonly records: VersionedRepository<Row>,
    private readonly logger: Logger,
  ) {}

  /** One event; answers whether the read model changed. */
  async execute(tenantId: string, occurredAt: Date, change: RecordChange<Input>): Promise<boolean> {
    return (await this.executeAll([{ tenantId, occurredAt, change }])) > 0;
  }

  /**
   * A batch of events, of any tenants, in one write (ADR 0238); answers how many rows changed. A
   * failed write throws for the whole batch, which may be repeated as it is.
   */
  async executeAll(received: ReadonlyArray<ReceivedChange<Input>>): Promise<number> {
    const changes: Array<VersionedChange<Row>> = [];
    for (const { tenantId, occurredAt, change } of received) {
      const checked = this.check(tenantId, occurredAt, change);
      if (checked) changes.push(checked);
    }
    return changes.length === 0 ? 0 : this.records.applyAll(changes);
  }

  private check(
    tenantId: string,
    occurredAt: Date,
    change: RecordChange<Input>,
  ): VersionedChange<Row> | undefined {
    const version = versionOf(change.version, occurredAt);
    if (change.kind === 'deleted') {
      if (!isRecordId(change.id))
        return this.drop(tenantId, [`${this.kind.idField} is not positive`]);
      return { tenantId, version, deleted: change.id };
    }
    if (!change.record) return this.drop(tenantId, [`the event has no ${this.kind.noun}`]);
    const checked = this.kind.toSnapshot(change.record, occurredAt);
    if ('problems' in checked) return this.drop(tenantId, checked.problems);
    return { tenantId, version, snapshot: checked.snapshot };
  }

  private drop(tenantId: string, problems: string[]): undefined {
    this.logger.warn({ tenant_id: tenantId, problems }, `${this.kind.name} event dropped`);
    return undefined;
  }
}
