import type { ReceivedResponse } from '../http/exchange.js';
import type { LocationId } from './scenario.js';

/**
 * The body a create's capture reads when its answer names the record only by its Location (RFC 9110 §15.3.2: a 201
 * "identified by ... a Location header field"): the answer's own object, if any, with the id its Location's last
 * path segment names. Undefined where the answer is no success, has no Location, or carries the id itself.
 */
export function bodyWithLocationId(response: ReceivedResponse, id: LocationId): Record<string, unknown> | undefined {
  const location = response.headers.location;
  if (location === undefined || response.status < 200 || response.status > 299) return undefined;
  const json = response.text === '' ? undefined : response.json;
  const own = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  if (own[id.field] !== undefined) return undefined;
  const segment = lastSegment(location);
  return segment === undefined ? undefined : { ...own, [id.field]: id.numeric ? numeric(segment) : segment };
}

function lastSegment(location: string): string | undefined {
  let path: string;
  try {
    path = new URL(location, 'http://base.invalid/').pathname;
  } catch {
    return undefined;
  }
  const segment = path.replace(/\/+$/, '').split('/').pop();
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

// Exactly, as the body's parser reads an integer: beyond 2^53 a bigint.
function numeric(segment: string): unknown {
  if (!/^-?\d+$/.test(segment)) return /^-?\d+(\.\d+)?$/.test(segment) ? Number(segment) : segment;
  const value = Number(segment);
  return Number.isSafeInteger(value) ? value : BigInt(segment);
}
