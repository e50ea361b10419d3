import { describe, expect, it } from 'vitest';
import { eraseParameters, parentKey, readPath } from './read-path.js';

describe('readPath', () => {
  it.each([
    ['/pets', { kind: 'collection', key: '/pets', collectionPath: '/pets' }],
    ['/pets/{petId}', { kind: 'item', key: '/pets', collectionPath: '/pets', itemParameter: 'petId' }],
    ['/users/{id}/orders', { kind: 'collection', key: '/users/{}/orders', collectionPath: '/users/{id}/orders' }],
    [
      '/users/{uid}/orders/{oid}',
      { kind: 'item', key: '/users/{}/orders', collectionPath: '/users/{uid}/orders', itemParameter: 'oid' },
    ],
    // Django REST framework's spelling: one trailing slash is kept in the paths, not read as a segment.
    ['/api/snippets/', { kind: 'collection', key: '/api/snippets', collectionPath: '/api/snippets/' }],
    ['/api/snippets/{id}/', { kind: 'item', key: '/api/snippets', collectionPath: '/api/snippets/', itemParameter: 'id' }],
  ])('places %s', (template, place) => {
    expect(readPath(template)).toEqual(place);
  });

  it.each([
    ['/', 'its path has an empty segment'],
    ['/pets//', 'its path has an empty segment'],
    ['//pets', 'its path has an empty segment'],
    ['/files/{name}.json', 'its last segment is neither fixed nor wholly a parameter'],
    ['/{tenant}', 'its last parameter does not follow a fixed segment, so it names no item of a collection'],
    ['/a/{x}/{y}', 'its last parameter does not follow a fixed segment, so it names no item of a collection'],
  ])('leaves %s on no resource', (template, reason) => {
    expect(readPath(template)).toEqual({ kind: 'other', reason });
  });

  it('erases parameter names, partial ones too, and finds the parent collection', () => {
    expect(eraseParameters('/v{n}/users/{userId}/orders')).toBe('/v{}/users/{}/orders');
    expect(parentKey('/users/{}/orders')).toBe('/users');
    expect(parentKey('/a/{}/b/{}/c')).toBe('/a/{}/b');
    expect(parentKey('/pets')).toBeUndefined();
  });
});
