import type { Validator } from '../../contract/compile-schema.js';
import { isJsonMedia } from '../../contract/find-response.js';
import type { Contract } from '../../contract/load-contract.js';
import { stringifyJson } from '../../contract/lossless-json.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import { objectShape, type RawSchema } from '../../contract/resources/object-shape.js';
import type { Resource, Singleton } from '../../contract/resources/resource.js';
import { sampleValue } from '../../contract/sample-value.js';

/** How one single record is read and checked: its seed, its validator, the fields the server keeps. */
export interface SingletonPlan {
  readonly singleton: Singleton;
  /** The served resource it hangs under; undefined at the top. */
  readonly parent: Resource | undefined;
  readonly seed: string;
  /** The GET's answer schema: what any record held must pass (a write, a state file, an admin replace). */
  readonly validate: Validator;
  /** readOnly fields: a write never sets them, the record keeps its own. */
  readonly serverFields: readonly string[];
}

/**
 * The single records the mock keeps (docs/reference/resources.md rule 12), by key: those at the top, and those under
 * a served resource, whose GET documents a JSON answer a seed can be made for.
 */
export function singletonPlans(contract: Contract, served: readonly Resource[]): Map<string, SingletonPlan> {
  const plans = new Map<string, SingletonPlan>();
  for (const singleton of inferResources(contract).singletons ?? []) {
    const parent = served.find((r) => r.key === singleton.parent);
    const plan = singleton.parent === undefined || parent ? planOf(singleton, parent, contract) : undefined;
    if (plan) plans.set(singleton.key, plan);
  }
  return plans;
}

function planOf(singleton: Singleton, parent: Resource | undefined, contract: Contract): SingletonPlan | undefined {
  const get = contract.byId.get(singleton.operations[0]?.operationId as string);
  const media = get?.responses
    .filter((r) => /^2\d\d$/.test(r.code))
    .sort((a, b) => a.code.localeCompare(b.code))
    .flatMap((r) => r.contents)
    .find((c) => isJsonMedia(c.mediaType) && c.validate !== undefined);
  const validate = media?.validate;
  if (!media || !validate) return undefined;
  const seed = media.example !== undefined && validate(media.example).length === 0 ? media.example : sampleValue(media.schema);
  if (validate(seed).length > 0) return undefined;
  const properties = objectShape(singleton.schema)?.properties ?? {};
  const serverFields = Object.keys(properties).filter((name) => (properties[name] as RawSchema).readOnly === true);
  return { singleton, parent, seed: stringifyJson(seed), validate, serverFields };
}
