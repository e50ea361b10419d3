import { stringifyJson } from '../contract/lossless-json.js';
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

export const ADMIN_ROUTES: Readonly<Record<string, AdminRoute>> = {
  'GET /health': ({ store, startedAt }) =>
    json(200, { status: 'ok', pets: store.size, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }),
  'POST /reset': async ({ reset }) => json(200, { status: 'reset', pets: await reset() }),
  'GET /pets': ({ store }) => ({ status: 200, body: stringifyJson(store.all()) }),
};

function json(status: number, value: unknown): MockResponse {
  return { status, body: stringifyJson(value) };
}
