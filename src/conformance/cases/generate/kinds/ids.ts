import { largestPageQuery } from '../../../../contract/list-parameters.js';
import type { Contract } from '../../../../contract/load-contract.js';
import type { Operation } from '../../../../contract/operation.js';
import { inferResources } from '../../../../contract/resources/infer-resources.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import type { Resource } from '../../../../contract/resources/resource.js';
import { assignsIds, hasRole, operationOf } from '../../../../contract/resources/resource-roles.js';
import { onceMarked } from '../../resource-marks.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind } from '../case-kind.js';
import { successStatuses } from '../expected-statuses.js';
import type { Random } from '../create-random.js';
import { listedReadCases } from '../listed-read-cases.js';
import { makeCase } from '../make-case.js';
import { markedList } from '../marked-list.js';
import { clientNamedIdCase } from '../client-named-id.js';
import { createBody, repeatedCreate, sendsOwnId, withFreshValues } from '../own-records.js';

const BURST = 8;

export const idsKind: CaseKind = {
  id: 'ids',
  description:
    'ids the service assigns are unique across the run, including a burst of concurrent creates, a client-sent id never becomes the resource id, one create stores one resource, an id the client names is kept and a second create of it makes no second record, and an id a list answers can be read (also under --read-only)',
  generate: ({ contract, random }) => [
    ...inferResources(contract).resources.flatMap((resource): Scenario[] => {
      const create = operationOf(resource, 'create', contract.byId);
      if (!create || !resource.id || resource.stateless || !hasRole(resource, 'get')) return [];
      if (!assignsIds(resource)) return clientNamedCases(resource, create, contract, random);
      const op = create.operationId;
      const id = resource.id.name;
      const model = inferResources(contract);
      const base = createBody(model, resource, create, random, false);
      const burst = repeatedCreate(model, resource, create, base, BURST, random);
      // A value no sane counter reaches, different on every seed; text where the id is text.
      const numeric = resource.id.schema.type === 'integer' || resource.id.schema.type === 'number';
      const clientId = numeric
        ? 7_000_000_000_000_000_000n + BigInt(random.below(1_000_000_000))
        : `client-sent-${random.text(12)}`;
      return [
        makeCase({
          kind: 'ids',
          id: `${op}/concurrent-burst`,
          name: `${op} assigns ${BURST} different ids to ${BURST} concurrent creates`,
          description: `Given ${BURST} valid bodies sent to ${op} at once, when the target answers, then each answer is a success with an ${id} no other create of this run received (id-assigned-once).`,
          steps: [
            {
              operation: create,
              ...burst,
              parallel: BURST,
              expect: { status: successStatuses(create) },
            },
          ],
        }),
        makeCase({
          kind: 'ids',
          id: `${op}/client-sent-id`,
          name: `${op} does not take an id the client sends`,
          description: `Given a valid body that also carries ${id}: ${clientId}, when it is sent to ${op}, then the answer is a success or a 4xx (the schema allows extra fields), and a created resource does not have that id: the service assigns it.`,
          steps: [
            {
              operation: create,
              body: { kind: 'json', value: withFreshValues(model, resource, create, { ...base, [id]: clientId }, random) },
              expect: { status: ['2XX', '4XX'], bodyNot: { [id]: clientId } },
            },
          ],
        }),
        ...storedOnceCase(resource, create, base, contract, random),
      ];
    }),
    // Creates nothing: with --read-only, the one case that reaches an item's 200.
    ...listedReadCases('ids', contract),
  ],
  // A client-named id (a book's ISBN) is the client's to keep unique: the service is not held to assigning one.
  notMade: ({ contract, random }) =>
    inferResources(contract).resources.flatMap((resource) => {
      const create = operationOf(resource, 'create', contract.byId);
      if (!create || !resource.id || resource.stateless || !hasRole(resource, 'get') || assignsIds(resource)) return [];
      const op = create.operationId;
      const made = sendsOwnId(resource, create) ? clientNamedIdCase(resource, contract, random) : undefined;
      return [
        {
          operationId: op,
          cases: `ids cases of ${op} (concurrent-burst, client-sent-id)`,
          reason: `its id field ${resource.id.name} is named by the client, not assigned by the service: there is no assigned id to hold unique or to keep from the client`,
        },
        ...(made === undefined
          ? [
              {
                operationId: op,
                cases: `ids cases of ${op} (client-named-id, stored-once)`,
                reason: `its id field ${resource.id.name} is neither assigned by the service nor sent in ${op}'s body`,
              },
            ]
          : 'reason' in made
            ? [{ operationId: op, cases: `ids/${op}/client-named-id`, reason: made.reason }]
            : []),
      ];
    }),
};

/** For an id the client names in the create (a book's ISBN): the record is kept at that id, and stored once. */
function clientNamedCases(resource: Resource, create: Operation, contract: Contract, random: Random): Scenario[] {
  if (!sendsOwnId(resource, create)) return [];
  const made = clientNamedIdCase(resource, contract, random);
  const base = createBody(inferResources(contract), resource, create, random, false);
  return [...('scenario' in made ? [made.scenario] : []), ...storedOnceCase(resource, create, base, contract, random)];
}

/**
 * One create named with a mark no other request carries, then the list at its largest page: stored-once fails a
 * list that holds two resources with that mark. A full page in another order may hold neither.
 */
function storedOnceCase(
  resource: Resource,
  operation: Operation,
  base: Record<string, unknown>,
  contract: Contract,
  random: Random,
): Scenario[] {
  const list = operationOf(resource, 'list', contract.byId);
  const marked = onceMarked(requestSchema(operation), random);
  if (!list || marked === undefined || !markedList(contract, operation)) return [];
  const op = operation.operationId;
  return [
    makeCase({
      kind: 'ids',
      id: `${op}/stored-once`,
      name: `${op} stores one resource for one create`,
      description: `Given one valid body named with a mark no other request of the run carries, when it is sent to ${op} and ${list.operationId} is called, then no two listed resources carry the mark (stored-once).`,
      steps: [
        {
          operation,
          body: {
            kind: 'json',
            value: withFreshValues(inferResources(contract), resource, operation, { ...base, ...marked }, random),
          },
          expect: { status: successStatuses(operation) },
        },
        { operation: list, query: largestPageQuery(list), expect: { status: successStatuses(list) } },
      ],
    }),
  ];
}
