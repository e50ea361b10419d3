import { parse as parseQuery } from 'node:querystring';
import { ADMIN_PREFIX, findAdminRoute } from '../admin/admin-routes.js';
import { lookupMethod, withHead } from '../allowed-methods.js';
import { mockError } from '../error-codes.js';
import type { OperationMatch } from '../../contract/find-operation.js';
import type { MockResponse } from '../handler.js';
import type { MockContext } from '../mock-context.js';
import type { RequestState } from '../request-state.js';
import type { Stage } from './stage.js';

/**
 * The operation of the contract (or the admin endpoint) the request names. HEAD is decided here, once: where
 * only GET is defined it is routed as that GET (RFC 9110 §9.3.2), and Node sends no body for it.
 */
export const route: Stage = (state, mock) => {
  const method = state.req.method ?? 'GET';
  const { path } = state;
  if (state.admin) {
    const match = findAdminRoute(method, path.slice(ADMIN_PREFIX.length), mock.admin.context.resources);
    if (match.kind === 'not-found') throw mockError('not_found', `no admin endpoint ${path}: see docs/reference/admin-api.md`);
    if (match.kind === 'method-not-allowed') return refuseMethod(state, match.allowed);
    state.adminRoute = match.route;
    return undefined;
  }
  // RFC 9110 §9.3.7: OPTIONS * asks what the server as a whole supports.
  if (method === 'OPTIONS' && state.req.url === '*') {
    state.headers = [...(state.headers ?? []), 'Allow', mock.contractMethods];
    return { status: 204, body: '' };
  }
  const { basePath, contract } = mock;
  if (!path.startsWith(basePath) || path.charCodeAt(basePath.length) !== SLASH) {
    throw mockError(
      'not_found',
      `no operation of the contract has path ${path}: the API is served under ${basePath}, e.g. ${basePath}/pets`,
    );
  }
  const relative = path.slice(basePath.length);
  // Set before the lookup: an error for a path of the API that names no operation is in the contract's error body.
  state.relative = relative;
  // Only a HEAD needs the lookup (and its closure): any other method is looked up as itself.
  const lookup = method === 'HEAD' ? lookupMethod(method, (m) => contract.findOperation(m, relative).kind === 'found') : method;
  const match = findOperation(mock, lookup, relative);
  if (match.kind === 'not-found') throw mockError('not_found', `no operation of the contract has path ${path}`);
  if (match.kind === 'method-not-allowed') return refuseMethod(state, match.allowed);
  state.operation = match.operation;
  state.pathParams = match.pathParams;
  // No cut-off: querystring stops at 1000 pairs by default, and a parameter past it went unvalidated
  // (limit=1000&…&status=bogus got 200). Node's 16 KiB header limit bounds the request line already.
  if (state.query !== '') state.parsedQuery = parseQuery(state.query, '&', '=', ALL_PAIRS);
  return undefined;
};

const SLASH = 47;
const ALL_PAIRS = { maxKeys: 0 };

// An app asks for the same few paths again and again: one found before is a table lookup, not a match against the
// contract's templates with its parameters decoded anew. Bounded in entries and length: a client asking for ever
// new paths only makes the table start over.
const MAX_ROUTES = 256;
const MAX_ROUTE_CHARS = 256;

function findOperation(mock: MockContext, method: string, relative: string): OperationMatch {
  let byPath = mock.routes.get(method);
  const known = byPath?.get(relative);
  if (known !== undefined) return known;
  const match = mock.contract.findOperation(method, relative);
  if (match.kind !== 'found' || relative.length > MAX_ROUTE_CHARS) return match;
  if (byPath === undefined) {
    byPath = new Map();
    mock.routes.set(method, byPath);
  }
  if (byPath.size >= MAX_ROUTES) byPath.clear();
  byPath.set(relative, match);
  return match;
}

// RFC 9110 §15.5.6: a 405 lists the methods the path has; an OPTIONS outside CORS gets 204 with the same Allow,
// which names OPTIONS too, since every path answers it.
function refuseMethod(state: RequestState, allowed: readonly string[]): MockResponse {
  const allow = [...withHead(allowed).filter((method) => method !== 'OPTIONS'), 'OPTIONS'].join(', ');
  state.headers = [...(state.headers ?? []), 'Allow', allow];
  if (state.req.method === 'OPTIONS') return { status: 204, body: '' };
  throw mockError('method_not_allowed', `${state.req.method} is not a method of ${state.path}: allowed ${allow}`);
}
