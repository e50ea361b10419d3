import { createRequire } from 'node:module';

// The http-spec and json packages prism-http itself resolves, so both see the same operation model.
const fromPrism = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
type Json = { bundleTarget(options: object): unknown; decycle(value: unknown): unknown };
type Oas3 = { transformOas3Operations(document: unknown): unknown[] };
type Oas = { convertToJsonSchema(document: unknown, schema: unknown): unknown };

/**
 * Prism's model of the contract's operations, as `getHttpOperationsFromSpec` builds it, for OpenAPI 3 only.
 * Prism's own helper also loads its OpenAPI 2 and Postman readers (about 300 modules, a third of the mock's
 * start-up) and dereferences again; the document here is already dereferenced, offline, by swagger-parser.
 */
export function prismOperations(dereferenced: object): unknown[] {
  const { bundleTarget, decycle } = fromPrism('@stoplight/json') as Json;
  const { transformOas3Operations } = fromPrism('@stoplight/http-spec/oas3/operation') as Oas3;
  const document = decycle(dereferenced) as object;
  return transformOas3Operations(document).map((operation) =>
    bundleTarget({ document: { ...document, __target__: operation }, path: '#/__target__', cloneDocument: false }),
  );
}

/**
 * A schema of the document as Prism's model reads its operations' schemas: OpenAPI 3.0's own keywords (`nullable`,
 * a boolean `exclusiveMinimum`) translated to draft 7, so that a named schema compiles as the operations' do.
 */
export function prismSchema(document: object, schema: unknown): unknown {
  const { convertToJsonSchema } = fromPrism('@stoplight/http-spec/oas') as Oas;
  return convertToJsonSchema(document, schema);
}

/**
 * Each of components.schemas as Prism's model would read it: a schema that refers to itself, directly or through
 * others, refers by `$ref` (to `#`, or into the bundle beside it) rather than containing itself, which the
 * dereferenced document does.
 */
export function prismComponentSchemas(dereferenced: object): Map<string, { schema: object; bundled?: Record<string, unknown> }> {
  const { bundleTarget, decycle } = fromPrism('@stoplight/json') as Json;
  // Only the schemas are decycled (the paths of a large contract are most of it): what repeats in them is found
  // among them, and the pointers decycle writes are the document's own (#/components/schemas/...).
  const schemas = (dereferenced as { components?: { schemas?: unknown } }).components?.schemas;
  const document = decycle({ components: { schemas } }) as { components?: { schemas?: Record<string, unknown> } };
  const bundles = new Map<string, { schema: object; bundled?: Record<string, unknown> }>();
  for (const name of Object.keys(document.components?.schemas ?? {})) {
    const path = `#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const { __bundled__: bundled, ...schema } = bundleTarget({ document, path, cloneDocument: false }) as {
      __bundled__?: Record<string, unknown>;
    };
    bundles.set(name, { schema, bundled });
  }
  return bundles;
}
