import { DEV_API_KEY } from '../src/mock/mock-options.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP request, ready to send to a target. */
export interface Request {
  readonly method: Method;
  /** Including the target's base path. */
  readonly path: string;
  /** A path of its own for each request sent, in place of `path` (see Scenario.pathOf). */
  readonly nextPath?: () => string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly expectedStatus: number;
}

/** An operation call the benchmark drives every target with; the path is relative to the base address. */
export interface Scenario {
  readonly id: string;
  readonly operationId: string;
  readonly method: Method;
  readonly path: string;
  /**
   * The path of the nth request of a run, for an operation no two requests may share (a delete needs a record no
   * request before it deleted); `path` says what it looks like in the report.
   */
  readonly pathOf?: (n: number) => string;
  readonly body?: string;
  /** Of the body; application/json unless given. */
  readonly contentType?: string;
  readonly expectedStatus: number;
  /** Sent once before a target's run, to make what the scenario reads (a record nested under a seeded one). */
  readonly before?: Omit<Scenario, 'id' | 'operationId' | 'before' | 'pathOf'>;
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

/** Where a server serves the contract: the mock under /v1, Prism and the ceiling at the root. */
export interface Serving {
  readonly basePath: string;
}

/** The scenario's request to one target; each call counts the requests of `pathOf` from 0 again. */
export function requestFor(scenario: Omit<Scenario, 'id' | 'operationId'>, serving: Serving): Request {
  const { pathOf } = scenario;
  let sent = 0;
  return {
    method: scenario.method,
    path: serving.basePath + scenario.path,
    ...(pathOf ? { nextPath: () => serving.basePath + pathOf(sent++) } : {}),
    headers: scenario.body ? { ...AUTH, 'content-type': scenario.contentType ?? 'application/json' } : AUTH,
    body: scenario.body,
    expectedStatus: scenario.expectedStatus,
  };
}
