import { isDeepStrictEqual } from 'node:util';
import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import { eraseParameters, pathParameterNames } from '../../../contract/resources/read-path.js';
import type { Resource, ResourceModel } from '../../../contract/resources/resource.js';
import type { Scenario, Step } from '../scenario.js';
import type { Random } from './create-random.js';
import { makeCase, type StepSpec } from './make-case.js';
import { absentValue, ownRecord, pathParams } from './own-records.js';
import { sampleValue } from './sample-value.js';

// RFC 9110 §9.2.1: only these leave the target as it was; any other method may change the record it addresses.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A case kept with its steps bound to records of its own, or the reason it could not be made, and where. */
export type Bound = { readonly scenario: Scenario } | { readonly reason: string; readonly operationId: string };

/**
 * Gives every step that would address a record by a placeholder (no value at all, or the parameter's example such
 * as 42 in a PUT or DELETE) a record of the case's own: its create (parents first) goes before the case's steps,
 * and the path takes the captured ids. A run thus writes only to what it created (issue 22), and no URL carries
 * `undefined`. Values a kind chose on purpose (an invalid one, an id no record has) are left as they are; so are
 * reads by an example id, which change nothing and may answer the documented 404.
 */
export function bindOwnRecords(scenario: Scenario, model: ResourceModel, contract: Contract, random: Random): Bound {
  const prefix: StepSpec[] = [];
  const bound = new Map<string, readonly string[]>();
  const steps: Step[] = [];
  for (const step of scenario.steps) {
    const unbound = placeholders(step);
    if (unbound.length === 0) {
      steps.push(absentIds(step, random));
      continue;
    }
    const addressed = addressedResource(model, step.operation, unbound);
    if (!addressed)
      return {
        operationId: step.operation.operationId,
        reason: `no resource of the contract is addressed by ${step.operation.path}, so ${unbound.join(', ')} has no value`,
      };
    let values = bound.get(addressed.key);
    if (!values) {
      const own = ownRecord(addressed, model, contract, random, `bound${bound.size}`);
      if ('reason' in own)
        return {
          operationId: step.operation.operationId,
          reason: `${unbound.join(', ')} of ${step.operation.operationId}: ${own.reason}`,
        };
      prefix.push(...own.steps.map((s) => ({ ...s, setup: true })));
      values = own.values;
      bound.set(addressed.key, values);
    }
    const own = pathParams(step.operation, values);
    steps.push({
      ...step,
      path: { ...step.path, ...Object.fromEntries(unbound.map((name) => [name, own[name]])) },
      templated: true,
    });
  }
  if (prefix.length === 0) return { scenario: { ...scenario, steps } };
  const remade = makeCase({
    kind: scenario.kind as string,
    id: scenario.id.slice((scenario.kind as string).length + 1),
    name: scenario.name,
    description: scenario.description,
    steps: prefix,
    tags: scenario.tags.filter((tag) => tag !== 'read-only'),
    connection: scenario.connection,
  });
  const setup = remade.steps;
  return {
    scenario: {
      ...remade,
      tags: [...new Set([...remade.tags.filter((tag) => tag !== 'read-only'), 'mutating'])],
      steps: [...setup, ...steps.map((step, i) => ({ ...step, index: setup.length + i + 1 }))],
    },
  };
}

/**
 * A read sent without valid credentials names a record no one is likely to have rather than the example id (42):
 * what it may reveal is nothing, and the case stays read-only. The answer it must get, 401, does not depend on it.
 */
function absentIds(step: Step, random: Random): Step {
  if (step.auth === 'default' || !SAFE_METHODS.has(step.operation.method) || step.templated) return step;
  const path = { ...step.path };
  for (const parameter of step.operation.parameters.filter(
    (p) => p.in === 'path' && isDeepStrictEqual(path[p.name], sampleValue(p.schema)),
  )) {
    path[parameter.name] = absentValue(parameter.schema, random);
  }
  return { ...step, path };
}

function placeholders(step: Step): string[] {
  const writes = !SAFE_METHODS.has(step.operation.method);
  return step.operation.parameters
    .filter((p) => p.in === 'path')
    .filter((p) => {
      const value = step.path[p.name];
      if (value === undefined || value === null) return true;
      return writes && isDeepStrictEqual(value, sampleValue(p.schema));
    })
    .map((p) => p.name);
}

/**
 * The resource whose records the unbound parameters name: its item path's (PUT /pets/{petId}, or a POST on it that
 * is not CRUD), or its parent's when only the parents' ids are missing: a nested collection
 * (POST /authors/{authorId}/books), or an item read whose own id a case captured (GET /authors/{authorId}/books/{isbn}
 * after the create), which then reads under the same parent the create was sent to.
 */
function addressedResource(model: ResourceModel, operation: Operation, unbound: readonly string[]): Resource | undefined {
  const erased = eraseParameters(operation.path);
  const usable = model.resources.filter((r) => !r.stateless && r.id);
  const item = usable.find((r) => r.itemPath !== undefined && eraseParameters(r.itemPath) === erased);
  if (item && unbound.includes(pathParameterNames(operation.path).at(-1) as string)) return item;
  const parent = item?.parent ?? model.resources.find((r) => eraseParameters(r.collectionPath) === erased)?.parent;
  return parent === undefined ? undefined : usable.find((r) => r.key === parent);
}
