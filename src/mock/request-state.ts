import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Operation } from '../contract/operation.js';
import type { AdminRoute } from './admin/admin-routes.js';
import { type Fault, NO_PREFERENCES, type Preferences } from './prefer/read-preferences.js';
import type { RawQuery, RequestInput } from './connection/read-request.js';

/**
 * Header fields as Node's writeHead takes them without building an object: name, value, name, value. Lists made
 * once (CORS without an Origin, an operation's deprecation headers) are shared by every request, and never written.
 */
export type HeaderList = readonly string[];

/**
 * One request as it passes the stages (src/mock/run-stages.ts): what each stage decided that a later one, send,
 * the log and the journal need. A class with every field set in the constructor: one shape for every request.
 */
export class RequestState {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly started: number;
  /** The request target's path (percent-encoded unreserved characters decoded) and query text, without the '?'. */
  path = '';
  query = '';
  /** The Host the request is addressed to: the authority of an absolute-form target, else the Host header. */
  host: string | undefined = undefined;
  /** An admin request: logged, not journaled (the journal shows what the app sent). */
  admin = false;
  adminRoute: AdminRoute | undefined = undefined;
  operation: Operation | undefined = undefined;
  pathParams: Readonly<Record<string, string>> = NO_PARAMS;
  /** The path below the base path, as Prism routes it; '' for a request outside the API (admin, another path). */
  relative = '';
  parsedQuery: RawQuery = NO_PARAMS;
  /** Headers decided along the way (CORS, Allow), written once by send. */
  headers: HeaderList | undefined = undefined;
  /** The session the request named with X-Mock-Session; undefined for the default store. */
  session: string | undefined = undefined;
  /** What the request asked with Prefer, over what a runtime rule asks. */
  preferences: Preferences = NO_PREFERENCES;
  /** The id of the admin rule that applied to the request. */
  rule: number | undefined = undefined;
  /** Who asked for the status: the request's Prefer, or the runtime rule that gave it (for the Error's message). */
  codeBy = 'Prefer';
  /** Wait this long before sending. */
  delayMs = 0;
  /** Answer with this fault instead of a response. */
  fault: Fault | undefined = undefined;
  /** Preferences applied (the Preference-Applied header, RFC 7240 §3) and not applied (with why, for the log). */
  applied: string[] | undefined = undefined;
  notApplied: string[] | undefined = undefined;
  /** Notes past those markNotApplied keeps. */
  notAppliedMore = 0;
  /** The request body as read, for validation, the journal and onExchange. */
  requestBody: string | undefined = undefined;
  /** The request read as its operation's types, once validated. */
  input: RequestInput | undefined = undefined;

  constructor(req: IncomingMessage, res: ServerResponse, started: number) {
    this.req = req;
    this.res = res;
    this.started = started;
  }
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
