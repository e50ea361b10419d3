import { describe, expect, it } from 'vitest';
import { interpolate } from './interpolate.js';

describe('interpolate', () => {
  const scope = { create: { status: 201, body: { id: 9007199254740993n, name: 'Rex', tags: ['a', 'b'] } }, run: { id: 'r1' } };

  it('keeps a captured int64 above 2^53 as the exact bigint when the template is the whole value', () => {
    expect(interpolate({ petId: '{{create.body.id}}' }, scope)).toEqual({ petId: 9007199254740993n });
  });

  it('writes values out in decimal inside longer text, and reads array lengths', () => {
    expect(interpolate('pet-{{create.body.id}}-{{run.id}}', scope)).toBe('pet-9007199254740993-r1');
    expect(interpolate(['{{create.body.tags.length}}'], scope)).toEqual([2]);
  });

  it('names what is missing', () => {
    expect(() => interpolate('{{create.body.owner}}', scope)).toThrow("{{create.body.owner}}: create.body has no 'owner'");
    expect(() => interpolate('{{list.body}}', scope)).toThrow("nothing was captured as 'list'");
  });
});
