import { describe, expect, it } from 'vitest';
import { createOperationFinder } from './find-operation.js';
import type { Operation } from './operation.js';

const op = (operationId: string, method: string, path: string) => ({ operationId, method, path }) as Operation;

describe('createOperationFinder', () => {
  const find = createOperationFinder([
    op('listPets', 'GET', '/pets'),
    op('createPet', 'POST', '/pets'),
    op('getPet', 'GET', '/pets/{petId}'),
    op('getMine', 'GET', '/pets/mine'),
    op('getToy', 'GET', '/pets/{petId}/toys/{toyId}'),
  ]);

  it('finds literal and templated paths, decoding parameters', () => {
    expect(find('GET', '/pets')).toMatchObject({ kind: 'found', operation: { operationId: 'listPets' } });
    expect(find('GET', '/pets/a%20b')).toMatchObject({ operation: { operationId: 'getPet' }, pathParams: { petId: 'a b' } });
    expect(find('GET', '/pets/1/toys/2')).toMatchObject({ pathParams: { petId: '1', toyId: '2' } });
  });

  it('prefers a literal segment over a template', () => {
    expect(find('GET', '/pets/mine')).toMatchObject({ operation: { operationId: 'getMine' } });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(find('DELETE', '/pets')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'POST'] });
    expect(find('GET', '/pets/')).toEqual({ kind: 'not-found' });
    expect(find('GET', '/owners')).toEqual({ kind: 'not-found' });
  });
});
