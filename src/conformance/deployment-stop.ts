import { findMedia, findResponse, isJsonMedia, mediaTypeOf } from '../contract/find-response.js';
import type { Operation } from '../contract/operation.js';
import type { ReceivedResponse } from './http/exchange.js';
import type { RunStop } from './run-result.js';

/** One probed operation's answer: what the probe sent it to, and what came back. */
export interface ProbeAnswer {
  readonly operation: Operation;
  readonly url: string;
  readonly response: ReceivedResponse;
}

interface Shape {
  readonly kind: RunStop['kind'];
  readonly matches: (answer: ProbeAnswer) => boolean;
  /** The one line, made from every answer (all of this shape); target text in it is cut short. */
  readonly reason: (answers: readonly ProbeAnswer[]) => string;
}

// RFC 9110 §15.4: the redirections that name where to go in Location (300 and 304 do not send the client on).
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// RFC 9110 §15.6.3-15.6.5: a gateway with nothing behind it, or a server not serving for now.
const UNAVAILABLE: Readonly<Record<number, string>> = { 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };
// Where sign-in services put their pages: /login, /sign-in, /sso/..., /oauth2/authorize, /adfs/ls, /cas/login...
const SIGN_IN =
  /(?:^|[/._-])(?:log-?[io]n|sign-?[io]n|sso|auth|oauth2?|openid|saml2?|adfs|cas|idp|authorize|authenticate)(?:$|[/._-])/i;
const HTML = new Set(['text/html', 'application/xhtml+xml']);
const SHOWN = 120;

/**
 * What answers when the deployment in front of the API is not the API, in the order they are told apart: a
 * redirect to a sign-in page or another host (single sign-on, a gateway, http:// for an https:// service), a
 * gateway or server that is not serving now, a web page where JSON is documented. A stop needs every probed
 * operation to answer in the same shape: a server that answers HTML on one operation only is judged like any other.
 */
const SHAPES: readonly Shape[] = [
  {
    kind: 'configuration',
    // A redirect the contract documents for the operation is its answer, wherever it points.
    matches: ({ operation, url, response }) => {
      const to = locationOf(url, response);
      const documented = findResponse(operation, response.status)?.code.startsWith('3') === true;
      const away = to !== undefined && (to.origin !== new URL(url).origin || SIGN_IN.test(to.pathname));
      return REDIRECTS.has(response.status) && !documented && away;
    },
    reason: (answers) =>
      `every probed operation was redirected (${statuses(answers)}) to ${shown(answers, (a) => where(locationOf(a.url, a.response)))}: a sign-in page (single sign-on) or another host answers, not the API; check --target, and what a gateway in front of the API needs to let the run through (-H)`,
  },
  {
    kind: 'unavailable',
    matches: ({ response }) => UNAVAILABLE[response.status] !== undefined,
    reason: (answers) => {
      const named = [...new Set(answers.map((a) => `${a.response.status} ${UNAVAILABLE[a.response.status]}`))].join(', ');
      const retryAfter = shown(answers, (a) => a.response.headers['retry-after']?.trim() || undefined);
      return `every probed operation answered ${named} (${retryAfter === undefined ? 'no Retry-After' : `Retry-After: ${retryAfter}`}): the target is not serving now (a deployment under way, or nothing healthy behind its gateway); run again later, or check the deployment`;
    },
  },
  {
    kind: 'configuration',
    matches: ({ operation, response }) => {
      const media = mediaTypeOf(response.headers['content-type']);
      const documented = findResponse(operation, response.status)?.contents ?? [];
      const json = operation.responses.some((r) => r.contents.some((c) => isJsonMedia(c.mediaType)));
      return media !== undefined && HTML.has(media) && json && findMedia(documented, media) === undefined;
    },
    reason: (answers) =>
      `every probed operation answered HTML (${statuses(answers)}, text/html) where the contract documents JSON: a web page (a sign-in page, a portal) answers, not the API; check --target and what stands in front of the API`,
  },
];

/** The stop for a deployment that is not the API, when every answer of the probe shows the same shape. */
export function deploymentStop(answers: readonly ProbeAnswer[]): RunStop | undefined {
  if (answers.length === 0) return undefined;
  const shape = SHAPES.find((s) => answers.every(s.matches));
  return shape === undefined ? undefined : { kind: shape.kind, reason: shape.reason(answers) };
}

function locationOf(url: string, response: ReceivedResponse): URL | undefined {
  const location = response.headers.location;
  if (location === undefined) return undefined;
  try {
    return new URL(location, url);
  } catch {
    return undefined;
  }
}

// Without the query: a sign-in URL carries state and return addresses there, sometimes a token.
function where(to: URL | undefined): string | undefined {
  return to === undefined ? undefined : `${to.origin}${to.pathname}`;
}

function statuses(answers: readonly ProbeAnswer[]): string {
  return [...new Set(answers.map((a) => a.response.status))].join(', ');
}

// The distinct values, cut short: each is the target's text.
function shown(answers: readonly ProbeAnswer[], pick: (answer: ProbeAnswer) => string | undefined): string | undefined {
  const values = [...new Set(answers.map(pick).filter((v): v is string => v !== undefined))];
  if (values.length === 0) return undefined;
  const text = values.join(', ');
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}
