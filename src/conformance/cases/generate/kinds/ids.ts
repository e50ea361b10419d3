import { largestPageQuery } from '../../../../contract/list-parameters.js';
import type { Contract } from '../../../../contract/load-contract.js';
import type { Operation } from '../../../../contract/operation.js';
import { IDENTIFIER, identifiesResources, listOperation, requestSchema } from '../../../../contract/resource-shape.js';
import { onceMarked } from '../../resource-marks.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind } from '../case-kind.js';
import { successStatuses } from '../expected-statuses.js';
import type { Random } from '../create-random.js';
import { listedReadCases } from '../listed-read-cases.js';
import { makeCase } from '../make-case.js';
import { sampleValue } from '../sample-value.js';

const BURST = 8;

export const idsKind: CaseKind = {
  id: 'ids',
  description:
    'ids the service assigns are unique across the run, including a burst of concurrent creates, a client-sent id never becomes the resource id, one create stores one resource, and an id a list answers can be read (also under --read-only)',
  generate: ({ contract, random }) => [
    ...contract.operations.flatMap((operation): Scenario[] => {
      if (!identifiesResources(operation, contract.operations)) return [];
      const op = operation.operationId;
      const base = sampleValue(requestSchema(operation)) as Record<string, unknown>;
      // A value no sane counter reaches, different on every seed.
      const clientId = 7_000_000_000_000_000_000n + BigInt(random.below(1_000_000_000));
      return [
        makeCase({
          kind: 'ids',
          id: `${op}/concurrent-burst`,
          name: `${op} assigns ${BURST} different ids to ${BURST} concurrent creates`,
          description: `Given ${BURST} valid bodies sent to ${op} at once, when the target answers, then each answer is a success with an id no other create of this run received (id-assigned-once).`,
          steps: [
            {
              operation,
              body: { kind: 'json', value: base },
              repeat: { count: BURST },
              parallel: BURST,
              expect: { status: successStatuses(operation) },
            },
          ],
        }),
        makeCase({
          kind: 'ids',
          id: `${op}/client-sent-id`,
          name: `${op} does not take an id the client sends`,
          description: `Given a valid body that also carries ${IDENTIFIER}: ${clientId}, when it is sent to ${op}, then the answer is a success or a 4xx (the schema allows extra fields), and a created resource does not have that id: the service assigns it.`,
          steps: [
            {
              operation,
              body: { kind: 'json', value: { ...base, [IDENTIFIER]: clientId } },
              expect: { status: ['2XX', '4XX'], bodyNot: { [IDENTIFIER]: clientId } },
            },
          ],
        }),
        ...storedOnceCase(operation, base, contract, random),
      ];
    }),
    // Creates nothing: with --read-only, the one case that reaches an item's 200.
    ...listedReadCases('ids', contract),
  ],
};

/**
 * One create named with a mark no other request carries, then the list at its largest page: stored-once fails a
 * list that holds two resources with that mark. A full page in another order may hold neither.
 */
function storedOnceCase(operation: Operation, base: Record<string, unknown>, contract: Contract, random: Random): Scenario[] {
  const list = listOperation(operation, contract.operations);
  const marked = onceMarked(requestSchema(operation), random);
  if (!list || marked === undefined) return [];
  const op = operation.operationId;
  return [
    makeCase({
      kind: 'ids',
      id: `${op}/stored-once`,
      name: `${op} stores one resource for one create`,
      description: `Given one valid body named with a mark no other request of the run carries, when it is sent to ${op} and ${list.operationId} is called, then no two listed resources carry the mark (stored-once).`,
      steps: [
        { operation, body: { kind: 'json', value: { ...base, ...marked } }, expect: { status: successStatuses(operation) } },
        { operation: list, query: largestPageQuery(list), expect: { status: successStatuses(list) } },
      ],
    }),
  ];
}
