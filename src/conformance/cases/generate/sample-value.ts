import { isFreeText, sampleValue as contractSample } from '../../../contract/sample-value.js';
import type { JsonSchema } from '../../../contract/operation.js';

export { isFreeText };

/** A template every string sample carries, so what a run created can be found on the target afterwards. */
export const RUN_MARK = '{{run.id}}';

/** The contract's sample (src/contract/sample-value.ts) with the run's mark on free text; `withOptional` fills optional properties. */
export function sampleValue(schema: JsonSchema | undefined, withOptional = false): unknown {
  return contractSample(schema, { withOptional, mark: RUN_MARK });
}
