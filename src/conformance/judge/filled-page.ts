import { pageSizeParameter } from '../../contract/list-parameters.js';
import { listedRecords } from '../../contract/resources/resource-roles.js';
import type { CheckInput } from './checks/check.js';

/**
 * The page size a list answer filled, or undefined when it did not (or its size cannot be told). A page as long
 * as the size asked, or the parameter's default, may continue on a later one in an order the contract does not
 * fix: what it lacks proves nothing, so a check that looked for something there could not verify it.
 */
export function filledPage(input: CheckInput): number | undefined {
  const { operation, exchange } = input;
  const body = listAnswer(input);
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

/**
 * The records of a list answer: the array its resource's list pointer leads to (`{ items, next }`), or the body
 * itself where it is an array and the operation lists no resource of the model.
 */
export function listAnswer({ operation, exchange, run }: CheckInput): readonly unknown[] | undefined {
  const body = exchange.response?.json;
  const role = run.roles.get(operation.operationId);
  if (role?.kind === 'list') return listedRecords(role.resource, body);
  return Array.isArray(body) ? body : undefined;
}
