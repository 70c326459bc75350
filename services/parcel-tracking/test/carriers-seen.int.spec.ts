import { describe, expect, it } from 'vitest';
import { as } from './harness.js';
import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();
const { newTenant, create } = suite;

describe('GetInstance carriers_seen', () => {
  it("lists every carrier of the instance's rows once, by code, with a name when one row has it, whatever the status", async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant);
    const id = instance!.id;
    const base = suite.rowBase(tenant, id);
    const { trackings } = suite.h.stores;
    await trackings.insert({ ...base, tracking_number: 'N1', delivery_status: 'pending' });
    await trackings.insert({
      ...base,
      tracking_number: 'U1',
      delivery_status: 'in_transit',
      carrier_code: 100002,
      carrier_name: null,
    });
    await trackings.insert({
      ...base,
      tracking_number: 'U2',
      delivery_status: 'exception',
      carrier_code: 100002,
      carrier_name: 'UPS',
    });
    await trackings.insert({
      ...base,
      tracking_number: 'F1',
      delivery_status: 'delivered',
      carrier_code: 100003,
      carrier_name: 'FedEx',
      delivered_at: new Date(),
    });
    await trackings.insert({
      ...base,
      tracking_number: 'Q1',
      delivery_status: 'info_received',
      carrier_code: 3011,
      carrier_name: null,
    });
    // Another tenant's carrier on the same instance id is not this instance's.
    await trackings.insert({
      ...base,
      tenant_id: 'someone-else',
      tracking_number: 'X1',
      delivery_status: 'in_transit',
      carrier_code: 190999,
      carrier_name: 'Elsewhere Post',
    });

    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.carriers_seen).toEqual([
      { carrier_code: 3011 },
      { carrier_code: 100002, carrier_name: 'UPS' },
      { carrier_code: 100003, carrier_name: 'FedEx' },
    ]);
  });
});
