import type { Operation } from '../contract/operation.js';
import { keyedRequest } from './cases/place-credential.js';
import { requiredHeaders } from './cases/generate/required-headers.js';
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
 * and the run's connections, nested records before their parents (a parent's delete may take them along, or be
 * refused while they exist). Its requests are no case: nothing is judged, only counted.
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
  const depths = [...new Set(deletable.map((d) => d.ids.length))].sort((a, b) => b - a);
  for (const depth of depths) {
    await runPool(
      deletable.filter((d) => d.ids.length === depth),
      concurrency,
      async ({ resource, ids }) => {
        const del = resource.operations.find((op) => op.kind === 'delete');
        if (del === undefined || del.pathParameters.length !== ids.length) return;
        let path = del.path;
        for (const [i, name] of del.pathParameters.entries())
          path = path.replace(`{${name}}`, encodeURIComponent(ids[i] as string));
        const operation = operations.get(del.operationId);
        const keyed = keyedRequest('DELETE', `${target}${path}`, operation, token);
        // A delete that requires If-Match (428 without one) is sent `If-Match: *`, as its cases send it.
        const required = operation ? requiredHeaders(operation) : {};
        const status = await client
          .send({ ...keyed, headers: { ...required, ...keyed.headers } })
          .then((exchange) => exchange.response?.status)
          .catch(() => undefined);
        tally[outcome(status)]++;
      },
    );
  }
  return tally;
}

function outcome(status: number | undefined): keyof Cleanup {
  if (status === undefined) return 'failed';
  if (status >= 200 && status < 300) return 'deleted';
  return status === 404 || status === 410 ? 'gone' : 'failed';
}
