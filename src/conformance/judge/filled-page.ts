import { pageSizeParameter } from '../../contract/list-parameters.js';
import type { Operation } from '../../contract/operation.js';
import type { Exchange } from '../http/exchange.js';

/**
 * The page size a list answer filled, or undefined when it did not (or its size cannot be told). A page as long
 * as the size asked, or the parameter's default, may continue on a later one in an order the contract does not
 * fix: what it lacks proves nothing, so a check that looked for something there could not verify it.
 */
export function filledPage(operation: Operation, exchange: Exchange): number | undefined {
  const body = exchange.response?.json;
  const page = pageSizeParameter(operation);
  if (!Array.isArray(body) || page === undefined) return undefined;
  let asked: string | null;
  try {
    asked = new URL(exchange.request.url).searchParams.get(page.name);
  } catch {
    return undefined;
  }
  const size = asked === null ? page.schema.default : Number(asked);
  return typeof size === 'number' && Number.isInteger(size) && size > 0 && body.length >= size ? size : undefined;
}
