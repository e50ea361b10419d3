import type { Handler } from './handler.js';
import { createMessage } from './handlers/create-message.js';

/**
 * Operations the mock answers with a handler of their own, by operationId: none of them keeps state (the
 * resources' CRUD operations are answered from the store by the generic handlers, see resource-handlers.ts).
 * Every other operation of the contract is answered by Prism from the contract's examples and schemas.
 */
export const STATEFUL_HANDLERS: Readonly<Record<string, Handler>> = {
  createMessage,
};
