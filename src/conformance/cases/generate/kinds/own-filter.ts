import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { objectShape } from '../../../../contract/resources/object-shape.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import type { Resource } from '../../../../contract/resources/resource.js';
import type { Random } from '../create-random.js';
import { RUN_MARK } from '../sample-value.js';

export interface OwnFilter {
  readonly parameter: string;
  readonly field: string;
  readonly value: unknown;
}

/**
 * A filter of the list on a field the create sends freely (no enum, pattern or format), with a value no other case
 * sends: records created with it are the only ones the filtered list holds, whatever other cases write meanwhile.
 */
export function ownFilter(resource: Resource, create: Operation, random: Random): OwnFilter | undefined {
  const sent = objectShape(requestSchema(create))?.properties ?? {};
  for (const { parameter, field } of resource.list?.filters ?? []) {
    const property = sent[field] as JsonSchema | undefined;
    if (!property || field === resource.id?.name || resource.serverFields.includes(field) || property.enum) continue;
    if (property.type === 'string' && property.pattern === undefined && property.format === undefined) {
      if (property.maxLength === undefined || property.maxLength >= 40)
        return { parameter, field, value: `page ${random.text(10)} ${RUN_MARK}` };
    }
    if (property.type === 'integer' && (property.maximum === undefined || property.maximum >= 2_000_000_000))
      return { parameter, field, value: 1_000_000 + random.below(1_000_000_000) };
  }
  return undefined;
}
