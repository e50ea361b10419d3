import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { objectShape } from '../../../../contract/resources/object-shape.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import { referencedResource } from '../../../../contract/resources/referenced-resource.js';
import type { Resource, ResourceModel } from '../../../../contract/resources/resource.js';
import { referencePlaceholders } from '../reference-placeholders.js';
import type { Random } from '../create-random.js';
import { RUN_MARK } from '../sample-value.js';

export interface OwnFilter {
  readonly parameter: string;
  readonly field: string;
  readonly value: unknown;
  /** Matched by equality (a reference, an integer), not as free text a server may search in any way. */
  readonly exact: boolean;
}

/**
 * A filter of the list on a field the create sends freely (no enum, pattern or format), with a value no other case
 * sends: records created with it are the only ones the filtered list holds, whatever other cases write meanwhile.
 */
export function ownFilter(
  resource: Resource,
  create: Operation,
  random: Random,
  model: ResourceModel,
  decoy = false,
): OwnFilter | undefined {
  const sent = objectShape(requestSchema(create))?.properties ?? {};
  for (const { parameter, field } of resource.list?.filters ?? []) {
    const property = sent[field] as JsonSchema | undefined;
    if (!property || field === resource.id?.name || resource.serverFields.includes(field) || property.enum) continue;
    // A field that refers to another resource's records (an order's petId) holds one of a record of the case's own:
    // bindOwnRecords gives its placeholder one, a new record no other case's filter value can name.
    if (referencedResource(model, field, resource, property))
      return { parameter, field, value: referencePlaceholders(property)[decoy ? 1 : 0], exact: true };
    if (property.type === 'string' && property.pattern === undefined && property.format === undefined) {
      if (property.maxLength === undefined || property.maxLength >= 40)
        return { parameter, field, value: `page ${random.text(10)} ${RUN_MARK}`, exact: false };
    }
    if (property.type === 'integer' && (property.maximum === undefined || property.maximum >= 2_000_000_000))
      return { parameter, field, value: 1_000_000 + random.below(1_000_000_000), exact: true };
  }
  return undefined;
}
