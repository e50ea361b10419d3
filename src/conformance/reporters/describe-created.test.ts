import { describe, expect, it } from 'vitest';
import { describeCreated } from './describe-created.js';

describe('describeCreated', () => {
  it('counts records per collection path, one record or several', () => {
    const created = [
      { collection: 'pets', path: '/pets', count: 3, deletable: false },
      { collection: 'orders', path: '/store/orders', count: 1, deletable: false },
    ];
    expect(describeCreated({ created, cleanup: undefined })).toBe(
      'Created 3 records in /pets, 1 record in /store/orders; no delete in the contract for /pets, /store/orders: left on the target',
    );
  });

  it('tells a collection without a delete from one whose create answers named no id the run could read', () => {
    const created = [
      { collection: 'pets', path: '/pets', count: 2, deletable: false, kept: 'no delete' as const },
      { collection: 'notes', path: '/notes', count: 1, deletable: false, kept: 'no id' as const },
    ];
    expect(describeCreated({ created, cleanup: undefined })).toBe(
      'Created 2 records in /pets, 1 record in /notes; no delete in the contract for /pets: left on the target; no id read from the create answers for /notes: left on the target',
    );
  });

  it('says what the cleanup deleted, and nothing when nothing was created', () => {
    const created = [{ collection: 'pets', path: '/pets', count: 1, deletable: true }];
    expect(describeCreated({ created, cleanup: { deleted: 1, gone: 0, failed: 0 } })).toBe(
      'Created 1 record in /pets; cleanup deleted 1 record, none failed',
    );
    expect(describeCreated({ created: [{ ...created[0]!, count: 0 }], cleanup: undefined })).toBeUndefined();
  });
});
