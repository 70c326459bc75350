import { validationFailed, type FieldViolation } from '@inventory/platform';
import { withInstanceId, type Properties } from '../domain/properties.js';
import type { ActivityDocument } from '../store/activity.js';
import type { ActivityRepository } from '../store/activity-repository.js';

export interface RecordActivityInput {
  tenantId: string;
  /** Dedupe key: the event id for consumed events, `rpc:<key>` for direct writes. */
  sourceId: string;
  event: string;
  description: string;
  subjectType: string;
  subjectId: number;
  causerId?: string | undefined;
  properties: Properties;
  integrationInstanceId?: number | undefined;
  createdAt: Date;
}

const MAX_EVENT_LENGTH = 255;

/** Stores one activity row, at most once per source id. */
export class RecordActivity {
  constructor(private readonly activities: ActivityRepository) {}

  async execute(input: RecordActivityInput): Promise<{ row: ActivityDocument; created: boolean }> {
    const violations: FieldViolation[] = [];
    if (!input.tenantId)
      violations.push({ field: 'tenant_id', description: 'The tenant is required.' });
    if (input.event.trim() === '' || input.event.length > MAX_EVENT_LENGTH) {
      violations.push({
        field: 'event',
        description: `The event must be 1 to ${MAX_EVENT_LENGTH} characters.`,
      });
    }
    if (!Number.isSafeInteger(input.subjectId) || input.subjectId < 0) {
      violations.push({
        field: 'subject_id',
        description: 'The subject id must be a non-negative integer.',
      });
    }
    if (input.subjectId > 0 && input.subjectType.trim() === '') {
      violations.push({
        field: 'subject_type',
        description: 'The subject type is required with a subject id.',
      });
    }
    if (violations.length > 0) throw validationFailed(violations);

    // No subject is stored as nulls, so "has no subject" is one shape in the database.
    const hasSubject = input.subjectType.trim() !== '';
    return this.activities.insertOnce(input.tenantId, {
      source_id: input.sourceId,
      event: input.event.trim(),
      description: input.description,
      subject_type: hasSubject ? input.subjectType : null,
      subject_id: hasSubject && input.subjectId > 0 ? input.subjectId : null,
      causer_id: input.causerId ? input.causerId : null,
      properties: withInstanceId(input.properties, input.integrationInstanceId),
      created_at: input.createdAt,
    });
  }
}
