import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import {
  createdResource,
  fetchOperation,
  IDENTIFIER,
  lastingFields,
  requestSchema,
  successSchema,
} from '../../../contract/resource-shape.js';
import type { StepExpectation } from '../scenario.js';
import { successStatuses } from './expected-statuses.js';
import type { StepSpec } from './make-case.js';

/**
 * A create that must answer what it was sent, byte for byte, and a fetch of the new resource by its id that must
 * answer the same (Pet: "all fields of NewPet, plus id"; getPet answers the pet asked for). `sent` is the body
 * as a value; the request itself may carry it raw (`request`), to vary its media type. A create whose answer
 * cannot be fetched again (POST /messages: "object with id, message, status, createdAt") is only held to its
 * status and schema: nothing says the text it answers is the text it was sent, and a server may trim or cut it.
 */
export function roundTrip(contract: Contract, operation: Operation, sent: unknown, request: Partial<StepSpec> = {}): StepSpec[] {
  const fetch = createdResource(operation) ? fetchOperation(operation, contract.operations) : undefined;
  const echoed = fetch ? echoedFields(operation, sent) : undefined;
  const expect: StepExpectation = { status: successStatuses(operation), ...(echoed ? { body: echoed } : {}) };
  const create: StepSpec = {
    operation,
    body: { kind: 'json', value: sent },
    ...request,
    expect,
    ...(fetch ? { capture: 'created' } : {}),
  };
  if (!fetch) return [create];
  const id = `{{created.body.${IDENTIFIER}}}`;
  return [
    create,
    {
      operation: fetch.operation,
      params: { [fetch.param]: id },
      expect: {
        status: successStatuses(fetch.operation),
        body: { ...lastingFields(fetch.operation, echoed ?? {}), [IDENTIFIER]: id },
      },
    },
  ];
}

/**
 * The fields of the sent body that the answer's schema declares too: those must come back unchanged. A null in an
 * optional (nullable) field is not among them: a server may read it as "not given" and answer its default.
 */
function echoedFields(operation: Operation, sent: unknown): Record<string, unknown> | undefined {
  const declared = successSchema(operation)?.properties;
  if (!declared || sent === null || typeof sent !== 'object' || Array.isArray(sent)) return undefined;
  const required = requestSchema(operation)?.required ?? [];
  const echoed = Object.fromEntries(
    Object.entries(sent).filter(([name, value]) => name in declared && (value !== null || required.includes(name))),
  );
  return Object.keys(echoed).length > 0 ? echoed : undefined;
}
