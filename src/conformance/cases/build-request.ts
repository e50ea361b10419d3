import { AppError } from '../../contract/app-error.js';
import { stringifyJson } from '../../contract/lossless-json.js';
import type { OutgoingRequest } from '../http/create-http-client.js';
import { acceptFor } from './accept-for.js';
import { holdsTemplate, interpolate } from './interpolate.js';
import { credentialParts, placeCredential } from './place-credential.js';
import type { Step } from './scenario.js';

/** The step as an HTTP request, captures filled in. Throws AppError('capture_missing') when one is missing. */
export function buildRequest(
  step: Step,
  scope: Readonly<Record<string, unknown>>,
  target: string,
  token: string | undefined,
): OutgoingRequest {
  // A step without repeat is sent once a run: looking it through for templates, to keep a request never asked for
  // again, cost more than building it.
  if (step.repeat === undefined) return build(step, scope, target, token);
  const known = built.get(step);
  if (known === null) return build(step, scope, target, token);
  if (known && known.target === target && known.token === token) return known.request;
  const request = build(step, scope, target, token);
  // A step whose request reads no capture and makes no random key is the same request every time it repeats;
  // the verdict is kept too, so a step that varies is not looked through again on every send.
  const fixed = step.auth !== 'invalid' && !(step.templated && holdsTemplate([step.path, step.query, step.headers, step.body]));
  built.set(step, fixed ? { target, token, request } : null);
  return request;
}

// A page's filler is a hundred sends of one step: each was built, its body written, from the start. null: a step
// whose request is built anew each time.
const built = new WeakMap<
  Step,
  { readonly target: string; readonly token: string | undefined; readonly request: OutgoingRequest } | null
>();

function build(step: Step, scope: Readonly<Record<string, unknown>>, target: string, token: string | undefined): OutgoingRequest {
  const fill = step.templated ? (value: unknown) => interpolate(value, scope) : (value: unknown) => value;
  const template = step.respell ? step.respell(step.operation.path) : step.operation.path;
  const params = fill(step.path) as Record<string, unknown>;
  const path = template.includes('{')
    ? template.replace(/\{([^}]+)\}/g, (_, name: string) =>
        pathSegment(pathText(params[name], `params.${name}`), `params.${name}`),
      )
    : template;
  let search = '';
  const queryValues = fill(step.query) as Record<string, unknown>;
  const credential = placeCredential(step.operation, step.auth, token);
  const placed = credentialParts(credential);
  if (Object.keys(queryValues).length > 0 || placed.query !== undefined) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(queryValues)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, scalarText(item, `query.${name}`));
    }
    // Last, so that the recorded URL masks it by position (create-http-client.ts).
    if (placed.query !== undefined) query.append(...placed.query);
    if (query.size > 0) search = `?${query}`;
  }
  const headers: Record<string, string> = { accept: acceptFor(step.operation), ...placed.headers };
  let body: string | undefined;
  if (step.body?.kind === 'json') {
    // stringifyJson writes bigints as their digits: an int64 id above 2^53 goes out exactly as captured.
    body = stringifyJson(fill(step.body.value));
    headers['content-type'] = 'application/json';
  } else if (step.body?.kind === 'raw') {
    body = String(fill(step.body.text));
  }
  for (const [name, value] of Object.entries(fill(step.headers) as Record<string, unknown>)) {
    const text = scalarText(value, `headers.${name}`);
    // A cookie the operation requires goes beside the key in a cookie, not in its place.
    if (name.toLowerCase() === 'cookie' && placed.headers.cookie !== undefined)
      headers.cookie = `${placed.headers.cookie}; ${text}`;
    else headers[name] = text;
  }
  return {
    method: step.method ?? step.operation.method,
    url: `${target.replace(/\/+$/, '')}${path}${search}`,
    headers,
    body,
    ...(step.raw ? { raw: true } : {}),
    ...(credential === undefined ? {} : { credential }),
  };
}

// A captured id with a lone surrogate ("\ud800") is no text a URL can carry: encodeURIComponent throws URIError.
function pathSegment(text: string, field: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    throw new AppError(
      'capture_missing',
      `${field}: the captured value is not well-formed Unicode (a lone surrogate), so no URL can carry it`,
    );
  }
}

// No value for a path parameter would go out as `/pets/undefined`: a request no server can answer as the case
// means (issue 22). The step is not sent, and says why.
function pathText(value: unknown, field: string): string {
  if (value === undefined || value === null) {
    throw new AppError('capture_missing', `${field}: no value (${String(value)}), so the URL would carry '${String(value)}'`);
  }
  return scalarText(value, field);
}

// A capture that filled in an object (`{{create.body}}` as a path parameter) would go out as [object Object].
function scalarText(value: unknown, field: string): string {
  if (value !== null && typeof value === 'object') {
    throw new AppError(
      'capture_missing',
      `${field}: the captured value is ${Array.isArray(value) ? 'a list' : 'an object'}, not text`,
    );
  }
  return String(value);
}
