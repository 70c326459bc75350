import type { Logger } from '@inventory/platform';
import { isRecordId, versionOf } from '../domain/record-version.js';
import type { Snapshot, VersionedRepository, VersionedRow } from '../store/versioned-repository.js';

/** One event of a record: created and updated carry the full record, deleted only its id. */
export type RecordChange<Input> =
  | { kind: 'snapshot'; record: Input | undefined; version: number }
  | { kind: 'deleted'; id: number; version: number };

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
 * Applies one event of a record (a product, a purchase invoice) to its read model. Older-than-held
 * events are ignored and deletes leave tombstones, so redelivery and any arrival order converge
 * on the newest state. A record that can never be shown is logged and dropped (retrying cannot
 * fix it).
 */
export class ApplyRecordChange<Input, Row extends VersionedRow> {
  constructor(
    private readonly kind: RecordKind<Input, Row>,
    private readonly records: VersionedRepository<Row>,
    private readonly logger: Logger,
  ) {}

  async execute(tenantId: string, occurredAt: Date, change: RecordChange<Input>): Promise<boolean> {
    const version = versionOf(change.version, occurredAt);
    if (change.kind === 'deleted') {
      if (!isRecordId(change.id))
        return this.drop(tenantId, [`${this.kind.idField} is not positive`]);
      return this.records.remove(tenantId, change.id, version);
    }
    if (!change.record) return this.drop(tenantId, [`the event has no ${this.kind.noun}`]);
    const checked = this.kind.toSnapshot(change.record, occurredAt);
    if ('problems' in checked) return this.drop(tenantId, checked.problems);
    return this.records.put(tenantId, checked.snapshot, version);
  }

  private drop(tenantId: string, problems: string[]): false {
    this.logger.warn({ tenant_id: tenantId, problems }, `${this.kind.name} event dropped`);
    return false;
  }
}
