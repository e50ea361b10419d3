import type { JsonSchema, Operation, ParameterSpec } from '../../../../contract/operation.js';
import { inferResources } from '../../../../contract/resources/infer-resources.js';
import { resourceRoles } from '../../../../contract/resources/resource-roles.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind, GenerateContext } from '../case-kind.js';
import { documentedAnswers, invalidInputStatus, invalidInputStatuses } from '../expected-statuses.js';
import { makeCase } from '../make-case.js';
import { readsOwnRecords } from '../own-records.js';
import { validRequest } from '../valid-request.js';
import { validVariants, type Variant } from '../value-variants.js';

export const parametersKind: CaseKind = {
  id: 'parameters',
  description:
    "every valid value at a parameter's edges gets a documented answer; values outside the schema get the documented 400, or are observed where the contract documents none",
  generate: (context) =>
    context.contract.operations.flatMap((operation) =>
      operation.parameters
        .filter((p) => p.in === 'query' || p.in === 'path')
        .flatMap((parameter) => casesFor(operation, parameter, context)),
    ),
};

function casesFor(operation: Operation, parameter: ParameterSpec, context: GenerateContext): Scenario[] {
  const op = operation.operationId;
  const request = withOwnPath(operation, context);
  const at = parameter.in === 'path' ? 'params' : 'query';
  const send = (value: unknown) => ({ ...request, [at]: { ...request[at], [parameter.name]: value } });
  const refusal = invalidInputStatus(operation);
  // A valid path value on a write would change a record the run did not create (an id 1 on staging): the run
  // writes only to its own records, so those variants are read-only cases' alone.
  const writesThere = parameter.in === 'path' && !SAFE_METHODS.has(operation.method);
  const valid = writesThere
    ? []
    : validVariants(parameter.schema, context.random).filter((v) => typeof v.value !== 'string' || v.value.length < 200);
  // A path value outside the parameter's type may not reach the operation at all: a router's 404, where the
  // operation documents one, is as good a refusal as its 400.
  // A path left at the contract's sample values (a parent the run cannot create: its resource keeps no state) names
  // records that need not exist: 404 answers any value of any parameter there.
  const unbound = SAFE_METHODS.has(operation.method) && Object.keys(request.params ?? {}).length > 0;
  const documented = invalidInputStatuses(operation);
  const refusals =
    refusal === undefined
      ? []
      : unbound || (parameter.in === 'path' && documents404(operation))
        ? withStatus(documented, 404)
        : documented;
  // A path value the case chose names a record that need not exist: 404 is HTTP's answer for it (RFC 9110 §15.5.5),
  // documented or not.
  const answers =
    parameter.in === 'path' || unbound ? withStatus(documentedAnswers(operation), 404) : documentedAnswers(operation);
  // A cursor is the server's to give out: one made up here may be refused as no cursor it gave, so it is recorded.
  const cursor = isCursor(operation, parameter, context);
  return [
    ...valid.map((variant) =>
      makeCase({
        kind: 'parameters',
        id: `${op}/${parameter.name}/${variant.id}`,
        name: `${op} answers ${parameter.name}=${variant.what} as documented`,
        description: cursor
          ? `Given the cursor ${parameter.name} set to ${variant.what}, which the server did not give out, when ${op} is called, then the answer is recorded: only a server error fails.`
          : `Given ${parameter.name} set to ${variant.what}, a value its schema allows, when ${op} is called, then the answer is one the contract documents for it.`,
        steps: [
          cursor
            ? { ...send(variant.value), observe: `${op} with the cursor ${parameter.name} ${variant.what}` }
            : variant.mayRefuse !== undefined
              ? {
                  ...send(variant.value),
                  expect: { status: [...answers, refusal ?? '4XX'] },
                  observe: `whether ${op} takes ${parameter.name}=${variant.what} (${variant.mayRefuse})`,
                }
              : { ...send(variant.value), expect: { status: answers } },
        ],
      }),
    ),
    ...invalidVariants(parameter).map((variant) =>
      makeCase({
        kind: 'parameters',
        id: `${op}/${parameter.name}/${variant.id}`,
        name: `${op} with ${parameter.name} ${variant.what}`,
        description: `Given ${parameter.name} set to ${variant.what}, when ${op} is called, then the answer is ${refusal ?? 'recorded: the contract documents no answer for it, so only a server error fails'}.`,
        steps: [
          {
            ...send(variant.value),
            ...(refusal === undefined
              ? { observe: `${op} with ${parameter.name}=${String(variant.value)} (${variant.what})` }
              : { expect: { status: refusals } }),
          },
        ],
      }),
    ),
  ];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A valid request whose path names records of the case's own where it can (bind-own-records.ts fills the path
 * parameters left out, parents first): a read under a parent the contract's example names would get the documented
 * 404 for a missing parent (`/projects/sample/tasks?limit=51`), never the answer to the parameter it varies.
 * Under --read-only, which skips cases that create, the example ids stay. Writes are bound there anyway.
 */
export function withOwnPath(operation: Operation, context: GenerateContext): ReturnType<typeof validRequest> {
  const request = validRequest(operation);
  if (context.readOnly || !SAFE_METHODS.has(operation.method)) return request;
  return readsOwnRecords(operation, inferResources(context.contract), context.contract) ? { ...request, params: {} } : request;
}

function isCursor(operation: Operation, parameter: ParameterSpec, context: GenerateContext): boolean {
  const role = resourceRoles(inferResources(context.contract)).get(operation.operationId);
  return parameter.in === 'query' && role?.kind === 'list' && role.resource.list?.paging.cursor === parameter.name;
}

function withStatus(statuses: (number | string)[], status: number): (number | string)[] {
  return statuses.includes(status) || statuses.includes(`${String(status)[0]}XX`) ? statuses : [...statuses, status];
}

function documents404(operation: Operation): boolean {
  return operation.responses.some((r) => r.code === '404');
}

/** Values outside a parameter's schema: not a number, a fraction, past its bounds, outside its enum. */
export function invalidVariants(parameter: ParameterSpec): Variant[] {
  const schema = parameter.schema;
  const variants: Variant[] = [];
  if (schema.type === 'integer' || schema.type === 'number') {
    variants.push({ id: 'not-a-number', what: 'abc, not a number', value: 'abc' });
    if (schema.type === 'integer') variants.push({ id: 'fraction', what: '1.5, not an integer', value: 1.5 });
    if (schema.minimum !== undefined)
      variants.push({ id: 'below-minimum', what: `below its minimum ${schema.minimum}`, value: schema.minimum - 1 });
    if (schema.maximum !== undefined)
      variants.push({ id: 'above-maximum', what: `above its maximum ${schema.maximum}`, value: schema.maximum + 1 });
    if (schema.format === 'int64') variants.push({ id: 'above-int64', what: '2^63, outside int64', value: 2n ** 63n });
  }
  // An array's items are sent one by one (or joined): an item outside their enum is outside the parameter's schema.
  const enumerated = schema.type === 'array' ? schema.items?.enum : schema.enum;
  const first = enumerated?.find((v): v is string => typeof v === 'string');
  if (first !== undefined) {
    variants.push({ id: 'enum-unknown', what: 'a value not in its enum', value: 'conformance-unknown' });
    if (!enumerated?.includes(first.toUpperCase())) {
      variants.push({
        id: 'enum-other-case',
        what: `${first.toUpperCase()}, an enum value in another case`,
        value: first.toUpperCase(),
      });
    }
  }
  // An empty value is an empty array in style form (`kind=`), valid unless minItems asks for items; an object's
  // members are sent as parameters of their own (deepObject `filter[status]=open`, form explode), and a bare
  // `filter=` names none of them, which a server may ignore as it ignores any unknown parameter.
  if (parameter.in === 'query' && !emptyValid(schema)) variants.push({ id: 'empty', what: 'empty', value: '' });
  return variants;
}

// Of alternatives with no type of their own (FastAPI's Optional[str]: anyOf string or null), any that takes it.
function emptyValid(schema: JsonSchema): boolean {
  if (schema.type === undefined) return (schema.anyOf ?? schema.oneOf ?? []).some(emptyValid);
  return schema.type === 'string' || schema.type === 'object' || (schema.type === 'array' && (schema.minItems ?? 0) === 0);
}
