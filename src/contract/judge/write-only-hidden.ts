import { findMedia, findResponse, mediaTypeOf } from '../find-response.js';
import type { Operation } from '../operation.js';
import { eachWriteOnly, hasWriteOnly } from '../write-only-fields.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

// Enough places to say what is wrong; a list of a thousand users each with its password says it in the first ones.
const MAX_PLACES = 5;

/**
 * An answer that carries a property its documented response schema marks writeOnly (OpenAPI 3.0.3 and 3.1,
 * Schema Object: such a property SHOULD NOT be sent in a response; a password is the usual one). Only where
 * the property is, never its value: it may be a secret.
 */
export function judgeWriteOnlyHidden(operation: Operation, response: ReceivedResponse): Problem | undefined {
  const documented = findResponse(operation, response.status);
  if (!documented || response.json === undefined) return undefined;
  const media = findMedia(documented.contents, mediaTypeOf(response.headers['content-type'])) ?? documented.contents[0];
  if (!media?.schema || !hasWriteOnly(media.schema)) return undefined;
  const places: string[] = [];
  // One past the places shown, so the title can say there are more.
  eachWriteOnly(response.json, media.schema, 'body', (_record, _name, place) => places.push(place) <= MAX_PLACES);
  if (places.length === 0) return undefined;
  const shown = places.slice(0, MAX_PLACES).join(', ');
  // The same fault in every item of a list is one title (`body[].password`), so failed cases group by it.
  const fields = [...new Set(places.map((place) => place.replace(/\[\d+\]/g, '[]')))].join(', ');
  return {
    title: `writeOnly field answered: ${fields}`,
    received: `${shown}${places.length > MAX_PLACES ? ', ...' : ''} (values not shown)`,
    documented: `writeOnly in the ${documented.code} response of ${operation.operationId}: never sent in a response`,
  };
}
