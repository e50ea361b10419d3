import type { Operation } from '../operation.js';

// OpenAPI 3.0 §4.7.20 (Link Object) with a runtime expression into the answer's body (§4.7.20.4): `$response.body#/id`.
const BODY_FIELD = /^\$response\.body#\/([^/]+)$/;

interface LinkObject {
  readonly operationId?: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
}

/**
 * The field of the create's answer that an OpenAPI link feeds into the item parameter (docs/resources.md rule
 * 4.2): the contract saying, in its own words, which field addresses a created record. Links are read from the
 * document, where the create's path item keeps them.
 */
export function linkedIdField(
  document: object,
  create: Operation,
  parameter: string,
  items: readonly Operation[],
): string | undefined {
  const paths = (
    document as { paths?: Record<string, Record<string, { responses?: Record<string, { links?: Record<string, LinkObject> }> }>> }
  ).paths;
  const responses = paths?.[create.path]?.[create.method.toLowerCase()]?.responses ?? {};
  const itemIds = new Set(items.map((o) => o.operationId));
  for (const [code, response] of Object.entries(responses)) {
    if (!code.startsWith('2')) continue;
    for (const link of Object.values(response?.links ?? {})) {
      if (link?.operationId !== undefined && !itemIds.has(link.operationId)) continue;
      const expression = link?.parameters?.[parameter] ?? link?.parameters?.[`path.${parameter}`];
      const match = typeof expression === 'string' ? BODY_FIELD.exec(expression) : null;
      if (match) return (match[1] as string).replace(/~1/g, '/').replace(/~0/g, '~');
    }
  }
  return undefined;
}
