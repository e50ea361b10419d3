import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import { inferResources } from '../../../contract/resources/infer-resources.js';
import { objectShape } from '../../../contract/resources/object-shape.js';
import { answerSchema, requestSchema } from '../../../contract/resources/representation.js';
import { pathParameterNames } from '../../../contract/resources/read-path.js';
import type { Resource } from '../../../contract/resources/resource.js';
import { besideCreate, lastingFields } from '../../../contract/resources/resource-roles.js';
import type { StepExpectation } from '../scenario.js';
import { successStatuses } from './expected-statuses.js';
import type { Random } from './create-random.js';
import { withFreshKeys } from './fresh-keys.js';
import type { StepSpec } from './make-case.js';
import { withFreshValues } from './own-records.js';

/**
 * A create that must answer what it was sent (strings as text: subset-mismatch.ts), and a fetch of the new resource
 * by its id that must answer the same (Pet: "all fields of NewPet, plus id"; getPet answers the pet asked for).
 * `sent` is the body as a value; the request itself may carry it raw (`request`), to vary its media type. A create
 * whose answer cannot be fetched again (POST /messages: "object with id, message, status, createdAt") is only held
 * to its status and schema: nothing says the text it answers is the text it was sent, and a server may trim or cut
 * it.
 */
export function roundTrip(contract: Contract, operation: Operation, sent: unknown, request: Partial<StepSpec> = {}): StepSpec[] {
  const { resource, fetch } = readBack(contract, operation) ?? {};
  const echoed = resource && fetch ? echoedFields(resource, operation, sent) : undefined;
  // A create that documents no answer body (a 201 with only a Location) is held to nothing in it: the fetch is.
  const answered = echoed && answerSchema(operation) ? { body: echoed } : {};
  const expect: StepExpectation = { status: successStatuses(operation), ...answered };
  const create: StepSpec = {
    operation,
    body: { kind: 'json', value: sent },
    ...request,
    expect,
    ...(fetch ? { capture: 'created' } : {}),
  };
  if (!resource?.id || !fetch) return [create];
  const id = `{{created.body.${resource.id.name}}}`;
  // A nested record's parents are left to bindOwnRecords, which gives the read the same ones as its create.
  const param = pathParameterNames(fetch.path).at(-1) as string;
  return [
    create,
    {
      operation: fetch,
      params: { [param]: id },
      expect: {
        status: successStatuses(fetch),
        body: { ...lastingFields(resource, echoed ?? {}), [resource.id.name]: id },
      },
    },
  ];
}

/**
 * `body` as one write of `operation` of its own sends it: a create's with a fresh client-named id and fresh unique
 * keys, any other write's with fresh unique keys (two updates setting one email on two records would conflict).
 */
export function freshWrite<T>(contract: Contract, operation: Operation, body: T, random: Random): T {
  const model = inferResources(contract);
  const created = readBack(contract, operation);
  return created
    ? withFreshValues(model, created.resource, operation, body, random)
    : withFreshKeys(model, operation, body, random);
}

/** The resource `operation` creates and the get that reads one back, when the resource model has both. */
export function readBack(contract: Contract, operation: Operation): { resource: Resource; fetch: Operation } | undefined {
  const found = besideCreate(inferResources(contract), operation, 'get', contract.byId);
  return found && { resource: found.resource, fetch: found.operation };
}

/**
 * The fields of the sent body that the answer's schema declares too: those must come back unchanged. A null in an
 * optional (nullable) field is not among them: a server may read it as "not given" and answer its default.
 */
function echoedFields(resource: Resource, operation: Operation, sent: unknown): Record<string, unknown> | undefined {
  const declared = objectShape(resource.schema)?.properties;
  if (!declared || sent === null || typeof sent !== 'object' || Array.isArray(sent)) return undefined;
  const required = objectShape(requestSchema(operation))?.required ?? new Set<string>();
  const echoed = Object.fromEntries(
    Object.entries(sent).filter(([name, value]) => name in declared && (value !== null || required.has(name))),
  );
  return Object.keys(echoed).length > 0 ? echoed : undefined;
}
