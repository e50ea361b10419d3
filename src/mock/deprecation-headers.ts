import type { Operation } from '../contract/operation.js';
import type { HeaderList } from './request-state.js';

/**
 * The headers that tell a client an operation is going away, derived once from the contract: Deprecation
 * (RFC 9745), Sunset from x-sunset (RFC 8594) and a Link to the operation named by x-replaced-by.
 * The contract says getPet is deprecated but not since when; without an x-deprecation-date the mock sends
 * the epoch, which RFC 9745 reads as "already deprecated".
 */
export function deprecationHeaders(
  operation: Operation,
  byId: ReadonlyMap<string, Operation>,
  basePath: string,
): HeaderList | undefined {
  if (!operation.deprecated) return undefined;
  const { 'x-deprecation-date': since, 'x-sunset': sunset, 'x-replaced-by': replacedBy } = operation.extensions;
  const headers = ['Deprecation', `@${typeof since === 'string' ? epochSeconds(since) : 0}`];
  if (typeof sunset === 'string') headers.push('Sunset', new Date(`${sunset}T00:00:00Z`).toUTCString());
  const successor = typeof replacedBy === 'string' ? byId.get(replacedBy) : undefined;
  if (successor) headers.push('Link', `<${basePath}${successor.path}>; rel="successor-version"`);
  return headers;
}

function epochSeconds(date: string): number {
  return Math.floor(new Date(date).getTime() / 1000) || 0;
}
