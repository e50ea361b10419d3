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

/**
 * The handlers that change their store. A session's store is made by the first of these to succeed in it: a read,
 * a message (messages are not kept) or a refused create makes none, nor takes one of --max-sessions' places.
 */
export const STORE_WRITERS: ReadonlySet<string> = new Set(['createPet']);

/** The operations with a handler of their own: the generic resource handlers leave their resources alone. */
export const LEGACY_OPERATIONS: ReadonlySet<string> = new Set(Object.keys(STATEFUL_HANDLERS));
