import type { JsonSchema, Operation } from './operation.js';

/**
 * How the runner reads resources off the contract, with no per-operation code: a resource is an object schema
 * with a required `id` (Pet: "Unique identifier assigned by the service on creation"); a create is a POST whose
 * success answer is such a resource and whose request body does not carry the id; a list is an answer that is an
 * array of them; a fetch is a GET of `{create path}/{param}` that answers the created resource's schema.
 */
export const IDENTIFIER = 'id';

export function isResource(schema: JsonSchema | undefined): schema is JsonSchema {
  return schema?.type === 'object' && schema.properties?.[IDENTIFIER] !== undefined && !!schema.required?.includes(IDENTIFIER);
}

/** The schema of the first documented 2xx JSON answer. */
export function successSchema(operation: Operation): JsonSchema | undefined {
  const success = operation.responses.find((r) => r.code.startsWith('2'));
  return success?.contents.find((c) => c.schema !== undefined)?.schema;
}

/**
 * Of a created resource's fields, those a later read must still answer: the ones `operation`'s success answer
 * declares, but not an enum (a status may move on after the create: transitions are not shown).
 */
export function lastingFields(operation: Operation, fields: object): Record<string, unknown> {
  const declared = successSchema(operation)?.properties ?? {};
  return Object.fromEntries(Object.entries(fields).filter(([name]) => declared[name] !== undefined && !declared[name]?.enum));
}

/** The field that names a resource in a body of `schema`: its first required text field (NewPet: name). */
export function namingField(schema: JsonSchema | undefined): string | undefined {
  return (schema?.required ?? []).find((name) => schema?.properties?.[name]?.type === 'string');
}

export function requestSchema(operation: Operation): JsonSchema | undefined {
  return operation.requestBody?.contents.find((c) => c.schema !== undefined)?.schema;
}

/** A POST that answers a new resource whose id the service assigns. */
export function createdResource(operation: Operation): JsonSchema | undefined {
  if (operation.method !== 'POST') return undefined;
  const schema = successSchema(operation);
  if (!isResource(schema)) return undefined;
  return requestSchema(operation)?.properties?.[IDENTIFIER] === undefined ? schema : undefined;
}

/** The item schema of an answer that lists resources. */
export function listedResource(schema: JsonSchema | undefined): JsonSchema | undefined {
  return schema?.type === 'array' && isResource(schema.items) ? schema.items : undefined;
}

/** The GET that fetches one resource made by `create`, and the name of its path parameter. */
export function fetchOperation(
  create: Operation,
  operations: readonly Operation[],
): { readonly operation: Operation; readonly param: string } | undefined {
  const created = createdResource(create);
  if (!created) return undefined;
  for (const operation of operations) {
    const match = /^\{([^{}/]+)\}$/.exec(operation.path.slice(create.path.length + 1));
    if (operation.method !== 'GET' || !operation.path.startsWith(`${create.path}/`) || !match) continue;
    if (sameSchema(successSchema(operation), created)) return { operation, param: match[1] as string };
  }
  return undefined;
}

/**
 * A create whose resources are fetched by their id (POST /pets and GET /pets/{petId}): an id that addresses a
 * resource must be unique, so two creates never get the same one. Without such a fetch (POST /messages) the
 * contract does not say ids are unique, and the runner does not assume it.
 */
export function identifiesResources(create: Operation, operations: readonly Operation[]): boolean {
  return fetchOperation(create, operations) !== undefined;
}

/** The GET of the create's own path that lists its resources. */
export function listOperation(create: Operation, operations: readonly Operation[]): Operation | undefined {
  const created = createdResource(create);
  if (!created) return undefined;
  return operations.find(
    (op) => op.method === 'GET' && op.path === create.path && sameSchema(listedResource(successSchema(op)), created),
  );
}

// Prism's model marks each top-level schema with its dialect ($schema); a nested one (Pets' items) has none.
function sameSchema(a: JsonSchema | undefined, b: JsonSchema | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  try {
    const text = (schema: JsonSchema) => JSON.stringify({ ...schema, $schema: undefined });
    return text(a) === text(b);
  } catch {
    // A schema that contains itself has no JSON form: compared as the same object or not at all.
    return a === b;
  }
}
