import type { Check } from './check.js';

/**
 * RFC 9110 §9.3.2: "The HEAD method is identical to GET except that the server MUST NOT send content in the
 * response", and it SHOULD send the header fields the GET would. A HEAD the target serves (2xx, 3xx) is compared
 * with the GET the case sent just before it: the same class of status, the same media type when both name one, and
 * (RFC 9110 §8.6: a server "MUST NOT send Content-Length in such a response unless its field value equals" the GET's
 * length) the same Content-Length when both send one and nothing can have changed the record in between.
 * A HEAD refused with a 4xx or 501 is "not served": noted, never failed (a server need not serve HEAD at all).
 */
export const headLikeGet: Check = {
  id: 'head-like-get',
  severity: 'medium',
  clause:
    "RFC 9110 §9.3.2: a HEAD is answered as the GET would be, without content: the same status class and Content-Type; §8.6: a Content-Length only if it is the GET's",
  observed: 'applies',
  check: ({ exchange, expect }) => {
    const response = exchange.response;
    const get = expect?.asGet;
    if (exchange.request.method !== 'HEAD' || !response || !get || response.status >= 400) return undefined;
    const status = Number(get.status);
    if (Math.floor(response.status / 100) !== Math.floor(status / 100)) {
      return {
        title: `HEAD answered ${response.status} where GET answered ${status}`,
        received: `HEAD: HTTP ${response.status}`,
        documented: `the GET's status class: ${Math.floor(status / 100)}xx (GET: HTTP ${status})`,
      };
    }
    const getHeaders = get.headers as Readonly<Record<string, unknown>> | undefined;
    const headType = mediaType(response.headers['content-type']);
    const getType = mediaType(getHeaders?.['content-type']);
    if (headType !== undefined && getType !== undefined && headType !== getType) {
      return {
        title: `HEAD answered Content-Type ${headType} where GET answered ${getType}`,
        received: `HEAD: Content-Type: ${headType}`,
        documented: `the GET's Content-Type: ${getType}`,
      };
    }
    const headLength = response.headers['content-length'];
    const getLength = getHeaders?.['content-length'];
    // Another content coding of the same content has another length.
    const recoded = response.headers['content-encoding'] !== getHeaders?.['content-encoding'];
    if (!get.sameContent || recoded || headLength === undefined || typeof getLength !== 'string' || headLength === getLength)
      return undefined;
    return {
      title: `HEAD answered Content-Length ${headLength} where GET answered ${getLength}`,
      received: `HEAD: Content-Length: ${headLength}`,
      documented: `no Content-Length, or the GET's: ${getLength} (RFC 9110 §8.6)`,
    };
  },
  unverified: ({ exchange, expect }) => {
    const status = exchange.response?.status;
    const get = expect?.asGet;
    if (exchange.request.method !== 'HEAD' || get === undefined || status === undefined || status < 400) return undefined;
    if (status >= 500 && status !== 501) return undefined;
    return Number(get.status) >= 400
      ? `the GET answered ${Number(get.status)} and HEAD ${status}: nothing served to compare`
      : `the target does not serve HEAD here (${status}): nothing to compare with the GET`;
  },
};

// RFC 9110 §8.3.1: type and subtype are case-insensitive; parameters (a charset) may differ between two answers.
function mediaType(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const type = value.split(';')[0]?.trim().toLowerCase();
  return type === '' ? undefined : type;
}
