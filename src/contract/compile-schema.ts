import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { AppError } from './app-error.js';
import { isInt64Number, toValidatable } from './lossless-json.js';

/** One problem with a value: where (`body.categoryId`) and what rule it breaks. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** Returns the issues, or an empty array for a valid value. Accepts bigints (see toValidatable). */
export type Validator = (value: unknown, root?: string) => readonly ValidationIssue[];

/** `body.categoryId: must be integer; body.status: must be one of ...`: how both tools show issues to people. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('; ');
}

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

// One instance for the whole process: every schema is compiled into it once, at contract load.
// strict: false because OpenAPI schemas carry keywords JSON Schema does not know (example, x-*).
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
(addFormatsModule as unknown as { default: (a: Ajv) => void }).default(ajv);
// ajv-formats' int64 only checks Number.isInteger; bigint stand-ins make the range check meaningful.
ajv.addFormat('int64', { type: 'number', validate: isInt64Number });

const FORMAT_RULES: Readonly<Record<string, string>> = {
  int64: 'must be an int64 integer (-9223372036854775808 to 9223372036854775807)',
  int32: 'must be an int32 integer (-2147483648 to 2147483647)',
};

export function compileSchema(schema: object, root: string): Validator {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(contractSchema(schema) as object);
  } catch (error) {
    // Prism's model writes a schema that refers to itself as a $ref into a bundle Ajv is never given.
    throw new AppError('contract_invalid', `the schema of ${root} cannot be compiled: ${(error as Error).message} (a schema that refers to itself is not supported)`);
  }
  return (value, at = root) => {
    if (validate(toValidatable(value))) return NO_ISSUES;
    return describeErrors(validate, at);
  };
}

function describeErrors(validate: ValidateFunction, root: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const typeBroken = new Set<string>();
  for (const error of validate.errors ?? []) {
    const path = issuePath(root, error);
    // A value of the wrong type also fails its format; the type is the one thing worth saying.
    if (error.keyword === 'type') typeBroken.add(path);
    else if (error.keyword === 'format' && typeBroken.has(path)) continue;
    const message = issueMessage(error);
    if (!issues.some((i) => i.path === path && i.message === message)) issues.push({ path, message });
  }
  return issues;
}

function issuePath(root: string, error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  let path = root;
  for (const segment of segments) path += /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
  return path;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function issueMessage(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'format':
      return FORMAT_RULES[String(error.params.format)] ?? `must match format "${String(error.params.format)}"`;
    case 'additionalProperties':
      return `must not have property '${String(error.params.additionalProperty)}'`;
    default:
      return error.message ?? `breaks the ${error.keyword} rule`;
  }
}

/**
 * Prism's OpenAPI transformer adds minimum/maximum ±(2^53−1) to every int64 schema that did not state
 * them (it marks the stated ones in x-stoplight.explicitProperties). Those bounds are not the contract's:
 * int64 reaches ±2^63, so they are removed here, with the transformer's own bookkeeping (x-stoplight).
 */
export function contractSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(contractSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key !== 'x-stoplight') copy[key] = contractSchema(value);
  }
  if (source.format === 'int64') {
    const explicit = (source['x-stoplight'] as { explicitProperties?: string[] } | undefined)?.explicitProperties;
    if (!explicit?.includes('minimum') && source.minimum === -Number.MAX_SAFE_INTEGER) delete copy.minimum;
    if (!explicit?.includes('maximum') && source.maximum === Number.MAX_SAFE_INTEGER) delete copy.maximum;
  }
  return copy;
}
