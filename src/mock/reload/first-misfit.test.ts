import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { adminResources } from '../resource/admin-records.js';
import { servedResources } from '../resource/resource-handlers.js';
import { RecordStore } from '../store/record-store.js';
import { firstMisfit } from './first-misfit.js';

const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';

describe('firstMisfit', () => {
  it('checks the held records of every resource, not only the first, and the fixtures', async () => {
    const contract = await loadContract(EVOLVED);
    const served = adminResources(contract, servedResources(contract));
    const store = (records: Record<string, unknown>[]) => {
      const made = new RecordStore({ idField: 'id', idKind: 'integer', indexFields: [], maxRecords: 10 });
      for (const record of records) made.create(record);
      return made;
    };
    const pets = store([{ id: 1, name: 'a', categoryId: 1, status: 'available' }]);
    const orders = store([{ id: 7, petId: 1, quantity: 0, status: 'placed' }]);
    expect(
      await firstMisfit(
        served,
        [
          ['', '/pets', pets],
          ['s1', '/store/orders', orders],
        ],
        new Map(),
      ),
    ).toMatch(/^record 1 of \/store\/orders in session "s1" \(id 7\): quantity: must be >= 1/);
    expect(await firstMisfit(served, [['', '/gone', pets]], new Map())).toMatch(/the contract no longer keeps this resource/);
    const [resource] = servedResources(contract).filter((r) => r.key === '/store/orders');
    const fixtures = new Map([['/store/orders', { resource: resource!, records: [{ record: { id: 1, petId: 1 } }] }]]);
    expect(await firstMisfit(served, [['', '/pets', pets]], fixtures)).toMatch(/^fixture entry 0 of \/store\/orders: /);
    expect(await firstMisfit(served, [['', '/pets', pets]], new Map())).toBeUndefined();
  });
});
