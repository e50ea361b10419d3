import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../contract/app-error.js';
import { handshakeFails } from './handshake-problem.js';
import type { HttpClient } from './create-http-client.js';

/**
 * `--wait`: a pipeline starts the runner beside a server that is still starting. Any HTTP answer to the base URL
 * (a 404 or a 401 too) shows something is listening; only a failed connection or a timeout is waited on, with a
 * pause that grows to 2 s. The request carries no key: it asks whether the target is up, not whether it serves.
 * A failure that shows the run's configuration is wrong ends the wait at once, and the probe reports it as it
 * would without --wait.
 */
export async function waitForTarget(client: Pick<HttpClient, 'send'>, target: string, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  let pauseMs = 250;
  for (;;) {
    const exchange = await client.send({ method: 'GET', url: `${target}/`, headers: {}, body: undefined });
    if (exchange.response !== undefined || exchange.error?.status !== undefined || handshakeFails(exchange.error?.code)) {
      return;
    }
    const left = deadline - performance.now();
    if (left <= 0) {
      throw new AppError(
        'target_unreachable',
        `Target ${target} did not answer within --wait ${Math.round(waitMs / 1000)}s: ${exchange.error?.message ?? 'no answer'}`,
      );
    }
    await sleep(Math.min(pauseMs, left));
    pauseMs = Math.min(pauseMs * 2, 2000);
  }
}
