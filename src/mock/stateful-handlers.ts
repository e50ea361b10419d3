import type { Handler } from './handler.js';
import { createMessage } from './handlers/create-message.js';
import { createPet } from './handlers/create-pet.js';
import { getPet } from './handlers/get-pet.js';
import { listPets } from './handlers/list-pets.js';

/**
 * Operations the mock answers from its own state, by operationId. Every other operation of the contract is
 * answered by Prism from the contract's examples and schemas: giving an operation state is adding a row.
 */
export const STATEFUL_HANDLERS: Readonly<Record<string, Handler>> = {
  listPets,
  createPet,
  getPet,
  createMessage,
};
