import { mockError } from '../error-codes.js';
import type { Handler } from '../handler.js';

// petId is a valid int64 here; ids the store assigns are safe integers, so a bigint id is never stored.
export const getPet: Handler = ({ path }, { store }) => {
  const id = path.petId as number | bigint;
  const json = typeof id === 'number' ? store.getJson(id) : undefined;
  if (json === undefined) throw mockError('pet_not_found', `no pet has id ${String(id)}`);
  return { status: 200, body: json };
};
