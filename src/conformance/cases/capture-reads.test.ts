import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { captureReads, projectReads, type ReadTree } from './capture-reads.js';
import { makeCase } from './generate/make-case.js';
import { interpolate } from './interpolate.js';
import { capturedAnswer, receivedResponse } from '../http/received-response.js';

describe('captureReads', async () => {
  const contract = await loadContract();
  const list = contract.byId.get('listPets');
  const create = contract.byId.get('createPet');
  const get = contract.byId.get('getPet');
  if (!list || !create || !get) throw new Error('the contract lacks listPets, createPet or getPet');

  it('finds what later steps read of each capture; repeat.less of one template counts a list', () => {
    const scenario = makeCase({
      kind: 'test',
      id: 'reads',
      name: 'reads',
      description: '',
      steps: [
        { operation: list, capture: 'before' },
        {
          operation: create,
          capture: 'made',
          repeat: { count: 3, less: '{{before.body}}' },
          body: { kind: 'json', value: { name: 'x' } },
        },
        {
          operation: get,
          params: { petId: '{{made.body.id}}' },
          expect: { status: [200], headers: { 'x-seen': '{{made.headers.location}}' } },
        },
      ],
    });
    const reads = captureReads(scenario);
    const made = reads.get('made');
    expect(reads.get('before')).toEqual(new Map([['body', new Map([['length', true]])]]));
    expect(made).toEqual(
      new Map([
        ['body', new Map([['id', true]])],
        ['headers', new Map([['location', true]])],
      ]),
    );
  });

  it('keeps what is read whole when a template writes a value out in longer text', () => {
    const scenario = makeCase({
      kind: 'test',
      id: 'whole',
      name: 'whole',
      description: '',
      steps: [
        { operation: list, capture: 'before' },
        { operation: create, body: { kind: 'raw', text: 'all: {{before.body}}, first: {{before.body.0.id}}' } },
      ],
    });
    expect(captureReads(scenario).get('before')).toEqual(new Map([['body', true]]));
  });
});

describe('projectReads', () => {
  const pets = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, name: `pet ${i}`, status: 'available' }));
  const answer = { status: 200, headers: { 'content-type': 'application/json' }, body: pets };

  it('lets every template read what it reads of the whole answer, and holds nothing else', () => {
    const reads: ReadTree = new Map([
      [
        'body',
        new Map<string, ReadTree>([
          ['length', true],
          ['2', new Map([['name', true]])],
        ]),
      ],
    ]);
    const projected = projectReads(answer, reads) as { body: unknown[] };
    for (const template of ['{{before.body.length}}', '{{before.body.2.name}}']) {
      expect(interpolate(template, { before: projected })).toEqual(interpolate(template, { before: answer }));
    }
    expect(interpolate('{{before.body}}', { before: projected })).toHaveLength(1000);
    expect(Object.keys(projected.body)).toEqual(['2']);
    expect(projected.body[2]).toEqual({ name: 'pet 2' });
    expect(() => interpolate('{{before.status}}', { before: projected })).toThrow("before has no 'status'");
  });

  it('gives a capture of a large answer that templates only count no text and no list to hold', () => {
    const text = JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: 'x'.repeat(10) })));
    const response = receivedResponse(200, {}, text);
    const captured = capturedAnswer(response, new Map([['body', new Map([['length', true]])]])) as { body: unknown[] };
    expect(captured.body.length).toBe(60_000);
    expect(Object.keys(captured.body)).toEqual([]);
    expect(Object.keys(captured)).toEqual(['body']);
  });
});
