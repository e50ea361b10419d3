import { DEV_API_KEY } from '../src/mock/mock-options.js';

/** One HTTP request, ready to send to a target. */
export interface Request {
  readonly method: 'GET' | 'POST';
  /** Including the target's base path. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly expectedStatus: number;
}

/** An operation call the benchmark drives every target with; the path is relative to the base address. */
export interface Scenario {
  readonly id: string;
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly expectedStatus: number;
}

const AUTH = { authorization: `Bearer ${DEV_API_KEY}` };

export const SCENARIOS: readonly Scenario[] = [
  { id: 'listPets', operationId: 'listPets', method: 'GET', path: '/pets', expectedStatus: 200 },
  {
    id: 'listPets?status&limit',
    operationId: 'listPets',
    method: 'GET',
    path: '/pets?status=available&limit=10',
    expectedStatus: 200,
  },
  {
    id: 'createPet',
    operationId: 'createPet',
    method: 'POST',
    path: '/pets',
    body: '{"name":"Rex","categoryId":1,"status":"available"}',
    expectedStatus: 201,
  },
  // Pet 1 is among the fixtures, and Prism answers any id from the contract's example.
  { id: 'getPet', operationId: 'getPet', method: 'GET', path: '/pets/1', expectedStatus: 200 },
];

/** Where and how a server serves the contract: the mock under /v1, Prism at the root; the ceiling always says 200. */
export interface Serving {
  readonly basePath: string;
  readonly fixedStatus?: number;
}

export function requestFor(scenario: Scenario, serving: Serving): Request {
  return {
    method: scenario.method,
    path: serving.basePath + scenario.path,
    headers: scenario.body ? { ...AUTH, 'content-type': 'application/json' } : AUTH,
    body: scenario.body,
    expectedStatus: serving.fixedStatus ?? scenario.expectedStatus,
  };
}
