import { RetentionPolicy, StorageType, type JetStreamManager } from 'nats';

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** How long events are kept, in ms (default 7 days). */
  maxAgeMs?: number;
}

/** Declares a stream in code: created when absent, subjects updated when it exists. */
export async function ensureStream(manager: JetStreamManager, spec: StreamSpec): Promise<void> {
  const config = {
    name: spec.name,
    subjects: spec.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: (spec.maxAgeMs ?? 7 * 24 * 3600 * 1000) * 1_000_000,
    duplicate_window: 2 * 60 * 1_000_000_000,
  };
  try {
    const info = await manager.streams.info(spec.name);
    const subjects = [...new Set([...(info.config.subjects ?? []), ...spec.subjects])];
    if (subjects.length !== info.config.subjects?.length) {
      await manager.streams.update(spec.name, { ...info.config, subjects });
    }
  } catch (error) {
    if (!String((error as Error).message).includes('stream not found')) throw error;
    try {
      await manager.streams.add(config);
    } catch (addError) {
      // Another replica created it between our look-up and our add.
      if (!String((addError as Error).message).includes('already in use')) throw addError;
    }
  }
}
