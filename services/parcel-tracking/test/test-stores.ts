import type { Connection } from 'mongoose';
import { CheckpointRepository } from '../src/store/checkpoint-repository.js';
import { InstanceRepository } from '../src/store/instance-repository.js';
import { ShipmentRepository } from '../src/store/shipment-repository.js';
import { TrackingRepository } from '../src/store/tracking-repository.js';

/**
 * The service's repositories on the test's own connection: tests seed and read rows through
 * their public methods, as the service's use cases do, and build workers on them.
 */
export function testStores(connection: Connection) {
  return {
    instances: new InstanceRepository(connection),
    trackings: new TrackingRepository(connection),
    shipments: new ShipmentRepository(connection),
    checkpoints: new CheckpointRepository(connection),
  };
}

export type TestStores = ReturnType<typeof testStores>;
