import { EventEmitter } from 'node:events';

/**
 * One timer per bucket length for every circuit breaker of the process, as opossum's
 * `rotateBucketController` allows: each breaker otherwise keeps a one-second interval of its own
 * to rotate its rolling window, and a process wakes once per breaker per second (the gateway has
 * thirteen, plus one per tenant for its tenant-partitioned clients). The timer runs only while a
 * breaker listens, and never keeps the process alive.
 */
const rotations = new Map<number, EventEmitter>();

export function bucketRotation(intervalMs: number): EventEmitter {
  const existing = rotations.get(intervalMs);
  if (existing) return existing;
  const rotation = new EventEmitter();
  rotation.setMaxListeners(0);
  let timer: NodeJS.Timeout | undefined;
  rotation.on('newListener', (event: string) => {
    if (event !== 'rotate' || timer) return;
    timer = setInterval(() => rotation.emit('rotate'), intervalMs);
    timer.unref();
  });
  rotation.on('removeListener', (event: string) => {
    if (event !== 'rotate' || rotation.listenerCount('rotate') > 0) return;
    clearInterval(timer);
    timer = undefined;
  });
  rotations.set(intervalMs, rotation);
  return rotation;
}
