import { describe, expect, it } from 'vitest';
import { interpolate, templateReferences } from './interpolate.js';

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

describe('templateReferences', () => {
  it('reads each template as a name and the keys it walks', () => {
    expect(templateReferences("{{ create.body.items.0.id }}-{{run.id}} and {'a': 1}")).toEqual([
      { name: 'create', keys: ['body', 'items', '0', 'id'] },
      { name: 'run', keys: ['id'] },
    ]);
  });

  it.each([
    ['{{1x}}', /\{\{1x\}\} is not a reference/],
    ['{{create body}}', /\{\{create body\}\} is not a reference/],
    ['{{create..id}}', /is not a reference/],
    ['{{}}', /\{\{\}\} is not a reference/],
    ['Rex {{run.id}', /'\{\{run\.id\}' opens a template with \{\{ that is never closed/],
  ])('says why %s is no reference, where interpolate would send it as written or fail', (text, problem) => {
    expect(templateReferences(text)).toContainEqual({ problem: expect.stringMatching(problem) });
  });
});
