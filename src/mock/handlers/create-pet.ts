import type { Handler } from '../handler.js';
import type { NewPet, PetStatus } from '../pet-store.js';

/**
 * The body was validated against NewPet. The contract does not say which status a pet gets when none is
 * sent (seed: "not shown"); the mock chooses `available`. Fields outside NewPet, a client-sent id among
 * them, are not stored: the id is always the server's.
 */
const DEFAULT_STATUS: PetStatus = 'available';

export const createPet: Handler = ({ body }, { store, basePath }) => {
  const fields = body as NewPet;
  const pet = store.create({ name: fields.name, categoryId: fields.categoryId, status: fields.status ?? DEFAULT_STATUS });
  return {
    status: 201,
    body: store.getJson(pet.id) as string,
    headers: { Location: `${basePath}/pets/${pet.id}` },
  };
};
