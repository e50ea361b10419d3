import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';
import { show } from './show-value.js';

/** An error whose body's `status` is not the HTTP status it came with. */
export function judgeErrorStatusMatches(response: ReceivedResponse): Problem | undefined {
  const body = response.json;
  if (response.status < 400 || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  if (!('status' in body) || body.status === response.status) return undefined;
  // Shown as JSON: a status sent as the string "401" must not read like the number it differs from.
  return {
    title: `Error status ${show(body.status)} differs from the HTTP status ${response.status}`,
    received: `HTTP ${response.status} with body.status ${show(body.status)}`,
    documented: `body.status ${response.status}`,
  };
}
