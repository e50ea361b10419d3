import type { HttpClient } from './create-http-client.js';
import type { Exchange } from './exchange.js';

/**
 * The same client, telling `seen` of every exchange it completes, on a case's own connection too: how the probe
 * and the watch on the target learn what came back without a word in the cases or the checks.
 */
export function observeClient(client: HttpClient, seen: (exchange: Exchange) => void): HttpClient {
  return {
    send: async (request) => {
      const exchange = await client.send(request);
      seen(exchange);
      return exchange;
    },
    redact: client.redact,
    redactPieces: client.redactPieces,
    dedicated: () => observeClient(client.dedicated(), seen),
    close: () => client.close(),
  };
}
