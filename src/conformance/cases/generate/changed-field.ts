import type { JsonSchema } from '../../../contract/operation.js';
import { RUN_MARK } from './sample-value.js';

/**
 * One field of `schema` set to another valid value than `current` holds: the first free-text one (`<word> <run
 * mark>`), else an enum at another value; none of `skip` (an id, what the server sets). Empty when there is none.
 */
export function changedField(
  schema: JsonSchema | undefined,
  current: Readonly<Record<string, unknown>>,
  skip: readonly string[],
  word = 'changed',
): Record<string, unknown> {
  const fields = Object.entries(schema?.properties ?? {}).filter(([name]) => !skip.includes(name));
  for (const [name, property] of fields) {
    if (property.type !== 'string' || property.pattern !== undefined || property.format !== undefined) continue;
    if (!property.enum && (property.maxLength === undefined || property.maxLength >= 20))
      return { [name]: `${word} ${RUN_MARK}` };
  }
  for (const [name, property] of fields) {
    const other = property.enum?.find((value) => value !== null && value !== current[name]);
    if (other !== undefined) return { [name]: other };
  }
  return {};
}
