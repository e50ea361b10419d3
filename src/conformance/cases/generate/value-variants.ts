import type { JsonSchema } from '../../../contract/operation.js';
import type { Random } from './create-random.js';
import { patternValues } from './pattern-values.js';
import { isFreeText, RUN_MARK } from './sample-value.js';

/** A value the schema allows, named for case ids and titles. */
export interface Variant {
  readonly id: string;
  readonly what: string;
  readonly value: unknown;
  /** Why a correct server may refuse it with its documented refusal: a bound the contract leaves to the server. */
  readonly mayRefuse?: string;
  /** What a correct server may change in it where the contract is silent, and the comparison allows: recorded. */
  readonly mayChange?: string;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const ABOVE_DOUBLE = 2n ** 53n + 1n;

/**
 * Valid values at the edges of a schema: each enum value; minimum, maximum and default; for int64 both ends and
 * ±(2^53+1), which a double cannot hold; 0 and a negative where no minimum is set; strings that break careless
 * code (empty, padded, quoted, control characters, non-ASCII, 10,000 characters). The empty and the long string,
 * and 0 and the negatives, are valid only because the contract sets no bound: a server may set its own (mayRefuse).
 */
export function validVariants(schema: JsonSchema, random: Random): Variant[] {
  if (schema.enum) return schema.enum.map((value) => ({ id: `enum-${String(value)}`, what: `${JSON.stringify(value)}`, value }));
  if (schema.type === 'integer') return integerVariants(schema);
  if (schema.type === 'boolean') return [true, false].map((value) => ({ id: String(value), what: String(value), value }));
  if (schema.type === 'string' && isFreeText(schema))
    return stringVariants(random, schema.minLength === 0).filter((v) => (v.value as string).length >= (schema.minLength ?? 0));
  const { matching } = patternValues(schema);
  if (matching !== undefined)
    return [
      { id: 'pattern-example', what: `${JSON.stringify(matching)}, its example, which matches its pattern`, value: matching },
    ];
  return [];
}

function integerVariants(schema: JsonSchema): Variant[] {
  const variants = new Map<string, Variant>();
  // An id field without a minimum (categoryId) takes 0 and negatives only because the contract sets no bound: a
  // server may require a positive number (@Positive), as it may a non-blank string. The positive int64 ends stay
  // demanded, and show a server that reads int64 through a double.
  const unbounded = schema.minimum === undefined && typeof schema.exclusiveMinimum !== 'number';
  const put = (id: string, what: string, value: number | bigint, signed = false) => {
    if (variants.has(String(value)) || !allows(schema, value)) return;
    const mayRefuse =
      signed && unbounded ? 'the contract sets no minimum, and a server may require a positive number' : undefined;
    variants.set(String(value), { id, what, value, ...(mayRefuse ? { mayRefuse } : {}) });
  };
  if (schema.minimum !== undefined) put('minimum', `the minimum ${schema.minimum}`, schema.minimum);
  if (schema.maximum !== undefined) put('maximum', `the maximum ${schema.maximum}`, schema.maximum);
  if (typeof schema.default === 'number') put('default', `the default ${schema.default}`, schema.default);
  if (schema.format === 'int64') {
    put('int64-max', 'the int64 maximum 2^63-1', INT64_MAX);
    put('int64-min', 'the int64 minimum -2^63', INT64_MIN, true);
    put('above-2-53', '2^53+1, which a double cannot hold', ABOVE_DOUBLE);
    put('below-minus-2-53', '-(2^53+1)', -ABOVE_DOUBLE, true);
  }
  // JSON Schema draft 7 and 2020-12 (OpenAPI 3.1): an exclusive bound is a number, the first value past it allowed.
  if (typeof schema.exclusiveMinimum === 'number')
    put(
      'above-exclusive-minimum',
      `${schema.exclusiveMinimum + 1}, just above the exclusive minimum`,
      schema.exclusiveMinimum + 1,
    );
  if (typeof schema.exclusiveMaximum === 'number')
    put(
      'below-exclusive-maximum',
      `${schema.exclusiveMaximum - 1}, just below the exclusive maximum`,
      schema.exclusiveMaximum - 1,
    );
  if (schema.minimum === undefined) {
    put('zero', '0', 0, true);
    put('negative', '-1', -1, true);
  }
  return [...variants.values()];
}

function allows(schema: JsonSchema, value: number | bigint): boolean {
  const n = Number(value);
  if (schema.minimum !== undefined && n < schema.minimum) return false;
  if (schema.maximum !== undefined && n > schema.maximum) return false;
  if (typeof schema.exclusiveMinimum === 'number' && n <= schema.exclusiveMinimum) return false;
  if (typeof schema.exclusiveMaximum === 'number' && n >= schema.exclusiveMaximum) return false;
  if (schema.format === 'int32') return n >= -(2 ** 31) && n < 2 ** 31;
  return true;
}

/** `blankAllowed`: the contract says so itself (`minLength: 0`), so no server may refuse the empty string. */
function stringVariants(random: Random, blankAllowed: boolean): Variant[] {
  return [
    {
      id: 'empty-string',
      what: 'an empty string',
      value: '',
      // Spring's @NotBlank, Django REST framework's allow_blank=False: "required" read as "not blank".
      ...(blankAllowed ? {} : { mayRefuse: 'the contract sets no minLength, and a server may require some text' }),
    },
    {
      id: 'padded-string',
      what: 'leading and trailing whitespace',
      value: `  Padded ${RUN_MARK}  `,
      // Django REST framework, Laravel and pydantic's strip_whitespace trim by default (subset-mismatch.ts sameText).
      mayChange: 'a server may trim the whitespace around it: the contract is silent',
    },
    { id: 'quotes-and-backslashes', what: 'quotes, backslashes and a slash', value: `Say "hi" \\ it's a\\/b ${RUN_MARK}` },
    {
      id: 'control-characters',
      what: 'control characters, NUL and DEL among them',
      value: `Tab\there\nnew line\rreturn \u0000nul \u0007bell \u001bescape \u001f \u007fdel ${RUN_MARK}`,
    },
    {
      id: 'non-ascii',
      what: 'non-ASCII text, an astral emoji and a combining mark',
      value: `Ünïcødé 日本語 🐕‍🦺 cafe\u0301 ${RUN_MARK}`,
    },
    { id: 'markup', what: 'markup characters', value: `<b>Rex</b> & <script>x</script> ${RUN_MARK}` },
    {
      id: 'long-string',
      what: '10,000 characters',
      value: `${random.text(10_000 - 9)} ${RUN_MARK}`,
      // A column of 255 characters behind a Django model or a @Size(max = 255).
      mayRefuse: 'the contract sets no maxLength, and a server may bound the text',
    },
  ];
}
