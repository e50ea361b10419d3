import type { Handler } from '../handler.js';
import type { PetStatus } from '../pet-store.js';

// Up to this many characters a list is one string, sent in one write (every list of ordinary pets); past it the
// pets are streamed, so a page of 100 pets with 1 MB names is never copied into a 100 MB string per request.
const JOINED_UP_TO = 64 * 1024;

// limit's default (20) and range come from the contract: readRequest has applied and checked them.
export const listPets: Handler = ({ query }, { store }) => {
  const parts = store.listJsonParts(query.limit as number, query.status as PetStatus | undefined);
  let length = 0;
  for (const part of parts) length += part.length;
  if (length <= JOINED_UP_TO) return { status: 200, body: `[${parts.join(',')}]` };
  return { status: 200, body: '', chunks: listChunks(parts) };
};

function* listChunks(parts: readonly string[]): Generator<string> {
  for (let i = 0; i < parts.length; i++) yield `${i === 0 ? '[' : ','}${parts[i]}`;
  yield parts.length === 0 ? '[]' : ']';
}
