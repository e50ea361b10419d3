import { describe, expect, it } from 'vitest';
import { textIdMaker } from './text-ids.js';

describe('textIdMaker', () => {
  it('counts where the id schema takes counted text and gives no example', () => {
    expect(textIdMaker({ type: 'string' })).toBeUndefined();
    expect(textIdMaker({ type: 'string', maxLength: 20 })).toBeUndefined();
  });

  it("makes ids in the example's shape where the schema gives one", () => {
    expect(textIdMaker({ type: 'string', example: 'cus_8fk2m1' })?.()).toMatch(/^cus_[0-9a-z]{10}$/);
  });

  it("makes ids in the example's shape where a pattern refuses counted ones", () => {
    const make = textIdMaker({ type: 'string', pattern: '^prj_[0-9a-z]{10}$', example: 'prj_0a1b2c3d4e' });
    const ids = Array.from({ length: 100 }, () => make?.());
    for (const id of ids) expect(id).toMatch(/^prj_[0-9a-z]{10}$/);
    expect(new Set(ids).size).toBe(100);
  });

  it('makes uuids where only a uuid fits (a minimum length, no example)', () => {
    expect(textIdMaker({ type: 'string', minLength: 30 })?.()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});
