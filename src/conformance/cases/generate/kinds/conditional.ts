import { inferResources } from '../../../../contract/resources/infer-resources.js';
import type { CaseKind } from '../case-kind.js';
import { conditionalReadCases } from './conditional-reads.js';
import { conditionalWriteCases } from './conditional-writes.js';
import { contextOf, ownIdPerCase, ownKeysPerCase } from './effects.js';

const KIND = 'conditional';

export const conditionalKind: CaseKind = {
  id: KIND,
  description:
    "the header promises of a record's reads and writes (RFC 9110 §13), only where the contract makes them: If-None-Match with the record's ETag is answered 304 where 304 is documented, a write changes the ETag and the old one gives no 304, and If-Match with a tag the record never had is refused with 412 and changes nothing",
  generate: ({ contract, random }) => {
    const model = inferResources(contract);
    return model.resources.flatMap((resource) => {
      const ctx = resource.stateless || !resource.id ? undefined : contextOf(resource, model, contract, random);
      if (!ctx) return [];
      // Each case makes its own record: unique keys and client-named ids drawn again, as the effects cases do.
      return [...conditionalReadCases(ctx, KIND), ...conditionalWriteCases(ctx, KIND)].map((scenario) =>
        ownIdPerCase(ctx, ownKeysPerCase(ctx, scenario)),
      );
    });
  },
};
