import type { Handler } from '../handler.js';
import type { PetStatus } from '../pet-store.js';

// limit's default (20) and range come from the contract: readRequest has applied and checked them.
export const listPets: Handler = ({ query }, { store }) => ({
  status: 200,
  body: store.listJson(query.limit as number, query.status as PetStatus | undefined),
});
