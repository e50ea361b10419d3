import { IDENTIFIER, identifiesResources, requestSchema } from '../../../contract/resource-shape.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind } from '../case-kind.js';
import { successStatuses } from '../expected-statuses.js';
import { makeCase } from '../make-case.js';
import { sampleValue } from '../sample-value.js';

const BURST = 8;

export const idsKind: CaseKind = {
  id: 'ids',
  description:
    'ids the service assigns are unique across the run, including a burst of concurrent creates, and a client-sent id never becomes the resource id',
  generate: ({ contract, random }) =>
    contract.operations.flatMap((operation): Scenario[] => {
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
      ];
    }),
};
