import { largestPageQuery } from '../../../contract/list-parameters.js';
import type { Contract } from '../../../contract/load-contract.js';
import { inferResources } from '../../../contract/resources/infer-resources.js';
import { requestSchema } from '../../../contract/resources/representation.js';
import type { Resource } from '../../../contract/resources/resource.js';
import { namingField, operationOf } from '../../../contract/resources/resource-roles.js';
import { onceMarked } from '../resource-marks.js';
import type { Scenario } from '../scenario.js';
import type { Random } from './create-random.js';
import { successStatuses } from './expected-statuses.js';
import { makeCase, type StepSpec } from './make-case.js';
import { ownRecord, pathParams } from './own-records.js';

/**
 * The case of a resource whose id the client names in its create (a book's ISBN), or why it cannot be made. The
 * service is held to what the name means, not to assigning one: the record is read at the id the client chose, and
 * a second create of that id makes no second record. Whether a taken id is refused (409, 400, 422) or replaces the
 * record (an upsert) the contract does not say: that answer is observed, never failed; a refusal must leave the
 * first record as it was (refusal-leaves-no-trace), and a list must not show the id twice (ids-unique-in-list).
 */
export function clientNamedIdCase(
  resource: Resource,
  contract: Contract,
  random: Random,
): { readonly scenario: Scenario } | { readonly reason: string } {
  const get = operationOf(resource, 'get', contract.byId);
  const list = operationOf(resource, 'list', contract.byId);
  const own = ownRecord(resource, inferResources(contract), contract, random, 'created');
  if (!get) return { reason: 'it has no get to read the record at the id the client chose' };
  if ('reason' in own) return own;
  const id = (resource.id as NonNullable<Resource['id']>).name;
  const create = own.steps[own.steps.length - 1] as StepSpec;
  const op = create.operation.operationId;
  const chosen = own.body[id];
  const at = [...own.values.slice(0, -1), chosen as string];
  const named = namingField(requestSchema(create.operation));
  const first = named === undefined ? {} : { [named]: own.body[named] };
  const again = { ...own.body, ...onceMarked(requestSchema(create.operation), random) };
  const read = { operation: get, params: pathParams(get, at) };
  const listStep: StepSpec[] = list
    ? [
        {
          operation: list,
          params: pathParams(list, own.values.slice(0, -1)),
          query: largestPageQuery(list),
          expect: { status: successStatuses(list) },
        },
      ]
    : [];
  return {
    scenario: makeCase({
      kind: 'ids',
      id: `${op}/client-named-id`,
      name: `${op} keeps the ${id} the client names, and a second create of it makes no second record`,
      description: `Given a record created with ${id} ${String(chosen)} of the case's own, when ${get.operationId} reads that ${id}, then it answers the record (created-readable); when ${op} is sent the same ${id} again, the answer (a refusal or a replacement: the contract does not say) is observed, a refusal leaves the record as it was (refusal-leaves-no-trace), and ${list ? `${list.operationId} shows the ${id} once (ids-unique-in-list)` : 'no list shows it twice'}.`,
      steps: [
        ...own.steps,
        { ...read, expect: { effect: { check: 'created-readable', status: ['2XX'], body: { [id]: chosen } } } },
        {
          ...create,
          body: { kind: 'json', value: again },
          capture: 'again',
          setup: false,
          observe: `${op} was sent ${id} ${String(chosen)} a second time: whether a taken ${id} is refused or replaces the record, the contract does not say`,
          expect: { status: ['2XX', '4XX'] },
        },
        ...listStep,
        {
          ...read,
          expect: {
            effect: {
              check: 'refusal-leaves-no-trace',
              status: ['2XX'],
              body: { [id]: chosen, ...first },
              onlyAfter: { status: '{{again.status}}', in: ['4XX'] },
            },
          },
        },
      ],
    }),
  };
}
