import { createRequire } from 'node:module';

// The http-spec and json packages prism-http itself resolves, so both see the same operation model.
const fromPrism = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
type Json = { bundleTarget(options: object): unknown; decycle(value: unknown): unknown };
type Oas3 = { transformOas3Operations(document: unknown): unknown[] };

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
