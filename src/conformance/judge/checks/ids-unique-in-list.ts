import { listedRecords } from '../../../contract/resources/resource-roles.js';
import type { Check } from './check.js';

export const idsUniqueInList: Check = {
  id: 'ids-unique-in-list',
  severity: 'high',
  clause: 'Resources: id is the unique identifier of a Pet, so a list (Pets) never holds the same pet twice',
  observed: 'documented',
  check: ({ operation, exchange, run }) => {
    const response = exchange.response;
    const role = run.roles.get(operation.operationId);
    if (!response || role?.kind !== 'list' || response.status < 200 || response.status > 299) return undefined;
    const list = listedRecords(role.resource, response.json);
    const field = role.resource.id?.name as string;
    if (!list) return undefined;
    const seen = new Map<string, number>();
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const id = (item as Record<string, unknown>)[field];
      if (id === undefined) continue;
      const key = String(id);
      const first = seen.get(key);
      if (first !== undefined) {
        return {
          title: `the list holds id ${key} twice (items ${first} and ${i})`,
          received: `body[${first}].${field} and body[${i}].${field} are both ${key}`,
          documented: `each resource once: ${field} is a unique identifier`,
        };
      }
      seen.set(key, i);
    }
    return undefined;
  },
};
