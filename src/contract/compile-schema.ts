import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AppError } from './app-error.js';
import { distinct } from './effective-schema.js';
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

/** The JSON Schema dialect of a contract's schemas: OpenAPI 3.0's (as draft 7, which Prism's model translates it to), or 3.1's 2020-12. */
export type SchemaDialect = 'draft-07' | '2020-12';

// Two instances per contract, every schema of it compiled into both once, at contract load: one that stops at the
// first error, and one that lists them all to tell people. An Ajv instance keeps every schema it compiled, and the
// code made from it, for as long as it lives: a contract has its own pair, so that a contract replaced (--watch)
// takes its validators with it. strict: false because OpenAPI schemas carry keywords JSON Schema does not know
// (example, x-*).
function createAjv(dialect: SchemaDialect, allErrors: boolean): Ajv {
  const options = { strict: false, allErrors, validateFormats: true, logger: AJV_LOGGER };
  const ajv = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  (addFormatsModule as unknown as { default: (a: Ajv) => void }).default(ajv);
  // ajv-formats' int64 only checks Number.isInteger; bigint stand-ins make the range check meaningful.
  ajv.addFormat('int64', { type: 'number', validate: isInt64Number });
  return ajv;
}

// OpenAPI's `format` is an open set (3.0 §4.4, "tools can use the format to assist in validating"): a format no
// validator knows (uint32, phone) is not checked, as Prism does, and is no warning. Ajv said so once per schema that
// used one: 88 lines at the start of both tools on one real contract.
const AJV_LOGGER = {
  log: console.log,
  warn: (message: unknown, ...rest: unknown[]) => {
    if (!String(message).startsWith('unknown format')) console.warn(message, ...rest);
  },
  error: console.error,
};

/** The Ajv pair one contract's schemas are compiled with (see createAjv). */
export interface SchemaCompiler {
  readonly all: Ajv;
  readonly first: Ajv;
}

export function createSchemaCompiler(dialect: SchemaDialect): SchemaCompiler {
  return { all: createAjv(dialect, true), first: createAjv(dialect, false) };
}

// For the few schemas of the tool itself (a scenario file's format), compiled once per process.
const shared = new Map<SchemaDialect, SchemaCompiler>();
function sharedCompiler(dialect: SchemaDialect): SchemaCompiler {
  let compiler = shared.get(dialect);
  if (!compiler) {
    compiler = createSchemaCompiler(dialect);
    shared.set(dialect, compiler);
  }
  return compiler;
}

// Prism's model bundles what a recursive schema refers to (bundled-refs.ts), but where schemas each refer to several
// others that refer back (four or more, every one to every other), it leaves some $refs pointing into the document,
// which no schema given to Ajv holds: that case is said as what it is.
function compileProblem(error: Error): string {
  const missing = (error as { missingRef?: unknown }).missingRef;
  if (typeof missing === 'string' && missing.startsWith('#/paths/'))
    return `${error.message} (schemas that each refer to several others that refer back are not supported; a tree, a chain or a pair that refer to each other are)`;
  return error.message;
}

// Past this many items, a list that fails is described by its first error only: listing every error of 240,000
// pets would hold one error object each (hundreds of MB) for a report that shows fifty.
const LONG_LIST = 1000;

const FORMAT_RULES: Readonly<Record<string, string>> = {
  int64: 'must be an int64 integer (-9223372036854775808 to 9223372036854775807)',
  int32: 'must be an int32 integer (-2147483648 to 2147483647)',
};

export function compileSchema(
  schema: object,
  root: string,
  dialect: SchemaDialect = 'draft-07',
  { all, first }: SchemaCompiler = sharedCompiler(dialect),
): Validator {
  let validate: ValidateFunction;
  let validateFirst: ValidateFunction;
  try {
    // Prism's model labels every top-level schema draft 7, a 3.1 contract's too: the dialect is the contract's.
    const { $schema: _, ...own } = contractSchema(schema) as Record<string, unknown>;
    validate = all.compile(own);
    validateFirst = first.compile(own);
  } catch (error) {
    throw new AppError('contract_invalid', `the schema of ${root} cannot be compiled: ${compileProblem(error as Error)}`);
  }
  return (value, at = root) => {
    const validatable = toValidatable(value);
    if (validateFirst(validatable)) return NO_ISSUES;
    if (Array.isArray(validatable) && (validatable as unknown[]).length > LONG_LIST) return describeErrors(validateFirst, at);
    validate(validatable);
    return describeErrors(validate, at);
  };
}

// A list of 240,000 pets each missing a field has 240,000 errors: people read the first ones, and the rest is
// counted. Deduplication by key keeps the work linear in the number of errors.
const MAX_ISSUES = 50;

function describeErrors(validate: ValidateFunction, root: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const typeBroken = new Set<string>();
  let more = 0;
  for (const error of validate.errors ?? []) {
    const path = issuePath(root, error);
    // A value of the wrong type also fails its format; the type is the one thing worth saying.
    if (error.keyword === 'type') typeBroken.add(path);
    else if (error.keyword === 'format' && typeBroken.has(path)) continue;
    const message = issueMessage(error);
    const key = `${path}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (issues.length < MAX_ISSUES) issues.push({ path, message });
    else more++;
  }
  if (more > 0) issues.push({ path: root, message: `and ${more} more problem${more === 1 ? '' : 's'}` });
  return issues;
}

function issuePath(root: string, error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  return segments.reduce(issuePathStep, root);
}

/** One step down an issue's path as describeIssues shows it: `body.status`, `body[0]`. */
export function issuePathStep(path: string, segment: string): string {
  return /^\d+$/.test(segment) ? `${path}[${segment}]` : `${path}.${segment}`;
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
    if (key === 'enum' && Array.isArray(value)) copy[key] = distinct(value);
    else if (key !== 'x-stoplight') copy[key] = contractSchema(value);
  }
  // OpenAPI 3.0 lets nullable stand beside anyOf or oneOf with no type of its own (Stripe's contract does, for an
  // id or the object it expands to); Ajv refuses nullable without type, so it is said as JSON Schema says it.
  if (source.nullable === true && source.type === undefined) {
    const { nullable: _, ...rest } = copy;
    return { anyOf: [rest, { type: 'null' }] };
  }
  if (source.format === 'int64') {
    const explicit = (source['x-stoplight'] as { explicitProperties?: string[] } | undefined)?.explicitProperties;
    if (!explicit?.includes('minimum') && source.minimum === -Number.MAX_SAFE_INTEGER) delete copy.minimum;
    if (!explicit?.includes('maximum') && source.maximum === Number.MAX_SAFE_INTEGER) delete copy.maximum;
  }
  return copy;
}
