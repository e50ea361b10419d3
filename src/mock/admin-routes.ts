import { stringifyJson } from '../contract/lossless-json.js';
import { lookupMethod } from './allowed-methods.js';
import type { MockResponse } from './handler.js';
import type { PetStore } from './pet-store.js';

/** Outside the contract's base path, unauthenticated: tools for the developer, never part of the API. */
export const ADMIN_PREFIX = '/__admin';

export interface AdminContext {
  readonly store: PetStore;
  readonly startedAt: number;
  readonly reset: () => Promise<number>;
}

type AdminRoute = (context: AdminContext) => Promise<MockResponse> | MockResponse;

/** By path below ADMIN_PREFIX, then method. */
export const ADMIN_ROUTES: Readonly<Record<string, Readonly<Record<string, AdminRoute>>>> = {
  '/health': {
    GET: ({ store, startedAt }) =>
      json(200, { status: 'ok', pets: store.size, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }),
  },
  '/reset': { POST: async ({ reset }) => json(200, { status: 'reset', pets: await reset() }) },
  // Streamed: a store of gigabytes has no one JSON string (JSON.stringify of a 2 GB store crashed the mock).
  '/pets': { GET: ({ store }) => ({ status: 200, body: '', chunks: store.allJsonChunks() }) },
};

/** Every method some admin endpoint answers, for a CORS preflight. */
export const ADMIN_METHODS: readonly string[] = [...new Set(Object.values(ADMIN_ROUTES).flatMap((r) => Object.keys(r)))];

export type AdminMatch =
  | { readonly kind: 'found'; readonly route: AdminRoute }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

/** `path` is below ADMIN_PREFIX (/health); HEAD is answered as GET. */
export function findAdminRoute(method: string, path: string): AdminMatch {
  const byMethod = Object.hasOwn(ADMIN_ROUTES, path) ? ADMIN_ROUTES[path] : undefined;
  if (!byMethod) return { kind: 'not-found' };
  const found = lookupMethod(method, (m) => Object.hasOwn(byMethod, m));
  if (!Object.hasOwn(byMethod, found)) return { kind: 'method-not-allowed', allowed: Object.keys(byMethod) };
  return { kind: 'found', route: byMethod[found] as AdminRoute };
}

function json(status: number, value: unknown): MockResponse {
  return { status, body: stringifyJson(value) };
}
