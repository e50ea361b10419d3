import type { Operation } from '../contract/operation.js';
import { keyedRequest } from './cases/place-credential.js';
import type { HttpClient } from './http/create-http-client.js';
import type { Deletable } from './created-resources.js';
import { runPool } from './run-pool.js';

/** What --cleanup did at the end of the run. */
export interface Cleanup {
  /** Answered with a success: removed. */
  readonly deleted: number;
  /** Answered 404 or 410: already gone (a case deleted it, or the target never kept it). */
  readonly gone: number;
  /** Anything else (a refusal, a server error, no answer): still on the target, as far as the run knows. */
  readonly failed: number;
}

/**
 * Deletes what the run created, through the contract's delete operation of each resource, with the run's key
 * and the run's connections. Its requests are no case: nothing is judged, only counted.
 */
export async function cleanUp(
  deletable: readonly Deletable[],
  client: HttpClient,
  target: string,
  token: string | undefined,
  concurrency: number,
  operations: ReadonlyMap<string, Operation>,
): Promise<Cleanup> {
  const tally = { deleted: 0, gone: 0, failed: 0 };
  await runPool(deletable, concurrency, async ({ resource, id }) => {
    const del = resource.operations.find((op) => op.kind === 'delete');
    const param = del?.pathParameters.at(-1);
    if (del === undefined || param === undefined) return;
    const url = `${target}${del.path.replace(`{${param}}`, encodeURIComponent(id))}`;
    const status = await client
      .send(keyedRequest('DELETE', url, operations.get(del.operationId), token))
      .then((exchange) => exchange.response?.status)
      .catch(() => undefined);
    const outcome =
      status === undefined
        ? 'failed'
        : status >= 200 && status < 300
          ? 'deleted'
          : status === 404 || status === 410
            ? 'gone'
            : 'failed';
    tally[outcome]++;
  });
  return tally;
}
