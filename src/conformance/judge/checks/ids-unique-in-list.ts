import { findResponse } from '../../../contract/find-response.js';
import { IDENTIFIER, listedResource } from '../../../contract/resource-shape.js';
import type { Check } from './check.js';

export const idsUniqueInList: Check = {
  id: 'ids-unique-in-list',
  severity: 'high',
  clause: 'Resources: id is the unique identifier of a Pet, so a list (Pets) never holds the same pet twice',
  observed: 'documented',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    const list = response?.json;
    if (!response || !Array.isArray(list)) return undefined;
    const media = findResponse(operation, response.status)?.contents.find((c) => c.schema !== undefined);
    if (!listedResource(media?.schema)) return undefined;
    const seen = new Map<string, number>();
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const id = (item as Record<string, unknown>)[IDENTIFIER];
      if (id === undefined) continue;
      const key = String(id);
      const first = seen.get(key);
      if (first !== undefined) {
        return {
          title: `the list holds id ${key} twice (items ${first} and ${i})`,
          received: `body[${first}].id and body[${i}].id are both ${key}`,
          documented: 'each pet once: id is a unique identifier',
        };
      }
      seen.set(key, i);
    }
    return undefined;
  },
};
