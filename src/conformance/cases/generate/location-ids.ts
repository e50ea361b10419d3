import { resourceRoles } from '../../../contract/resources/resource-roles.js';
import type { ResourceModel } from '../../../contract/resources/resource.js';
import type { Scenario } from '../scenario.js';

/**
 * Every captured create of the case told its resource's id field, so that an answer naming the record only by its
 * Location (a 201 without a body) still gives later steps the id (cases/location-id.ts).
 */
export function withLocationIds(scenario: Scenario, model: ResourceModel): Scenario {
  const roles = resourceRoles(model);
  let changed = false;
  const steps = scenario.steps.map((step) => {
    const role = roles.get(step.operation.operationId);
    const id = role?.kind === 'create' ? role.resource.id : undefined;
    if (step.capture === undefined || id === undefined) return step;
    changed = true;
    return { ...step, locationId: { field: id.name, numeric: id.schema.type === 'integer' || id.schema.type === 'number' } };
  });
  return changed ? { ...scenario, steps } : scenario;
}
