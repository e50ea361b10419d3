import type { Operation } from '../../../contract/operation.js';
import { resourceRoles } from '../../../contract/resources/resource-roles.js';
import type { ResourceModel } from '../../../contract/resources/resource.js';
import type { Scenario, Step } from '../scenario.js';

/**
 * Every captured create of the case told its resource's id field, so that an answer naming the record only by its
 * Location (a 201 without a body) still gives later steps the id (cases/location-id.ts). Where the create documents
 * neither a body nor a Location, a server may answer with no id at all, as the contract allows: the steps that
 * need it are then not run, with that reason, rather than failed as not sendable.
 */
export function withLocationIds(scenario: Scenario, model: ResourceModel): Scenario {
  const roles = resourceRoles(model);
  let changed = false;
  const silent = new Map<string, string>();
  const steps = scenario.steps.map((step): Step => {
    const role = roles.get(step.operation.operationId);
    const id = role?.kind === 'create' ? role.resource.id : undefined;
    const needs = [...silent].find(([capture]) => readsCapture(step, capture));
    const marked = needs && step.unlessMissing === undefined ? { ...step, unlessMissing: needs[1] } : step;
    if (marked !== step) changed = true;
    if (step.capture === undefined || id === undefined) return marked;
    changed = true;
    if (!answersId(step.operation))
      silent.set(
        step.capture,
        `${step.operation.operationId} answered no ${id.name}, and its contract documents neither a body nor a Location for its success: nothing to address`,
      );
    return { ...marked, locationId: { field: id.name, numeric: id.schema.type === 'integer' || id.schema.type === 'number' } };
  });
  return changed ? { ...scenario, steps } : scenario;
}

/** Whether some success of the operation documents a body or a Location header: where a created record's id comes from. */
function answersId(operation: Operation): boolean {
  return operation.responses.some(
    (response) =>
      /^2/.test(response.code) && (response.contents.length > 0 || response.headers.some((header) => header.name === 'location')),
  );
}

function readsCapture(step: Step, capture: string): boolean {
  return mentions([step.path, step.query, step.headers, step.body, step.expect, step.repeat], `{{${capture}.`);
}

function mentions(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value.includes(text);
  if (Array.isArray(value)) return value.some((item) => mentions(item, text));
  if (value !== null && typeof value === 'object') return Object.values(value).some((item) => mentions(item, text));
  return false;
}
