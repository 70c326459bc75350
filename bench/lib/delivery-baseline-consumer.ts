/** The durable the delivery baseline consumes through, while a measurement has it open. */
export const BASELINE_CONSUMER = 'bench-delivery-baseline';
