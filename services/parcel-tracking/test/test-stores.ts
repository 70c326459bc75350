import type { Connection } from 'mongoose';
import { CheckpointRepository } from '../src/store/checkpoint-repository.js';
import { InstanceRepository } from '../src/store/instance-repository.js';
import { ShipmentStore } from '../src/store/shipment-store.js';
import { TrackingRepository } from '../src/store/tracking-repository.js';

/**
 * The service's repositories on the test's own connection: tests seed and read rows through
 * their public methods, as the service's use cases do, and build workers on them.
 */
export function testStores(connection: Connection) {
  return {
    instances: new InstanceRepository(connection),
    trackings: new TrackingRepository(connection),
    shipments: new ShipmentStore(connection),
    checkpoints: new CheckpointRepository(connection),
  };
}

export type TestStores = ReturnType<typeof testStores>;
