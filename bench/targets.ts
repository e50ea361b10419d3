import { join } from 'node:path';
import { packageRoot } from '../src/contract/package-root.js';
import { DEV_API_KEY } from '../src/mock/mock-options.js';
import { LIBRARY_CONTRACT } from './library-scenarios.js';
import type { Serving } from './scenarios.js';
import type { ServerCommand } from './spawn-server.js';

export type TargetId = 'ours' | 'ceiling' | 'prism';

/** A server the benchmark compares: how to start it and where it serves the contract. */
export interface Target extends Serving {
  readonly id: TargetId;
  readonly title: string;
  readonly command: ServerCommand;
}

const root = packageRoot();
const AUTH = { authorization: `Bearer ${DEV_API_KEY}` };

export const TARGETS: Readonly<Record<TargetId, Target>> = {
  ours: {
    id: 'ours',
    title: 'petstore-mock',
    basePath: '/v1',
    command: {
      args: [join(root, 'dist/src/cli/petstore-mock.js'), '--quiet', '--port', '{port}'],
      probePath: '/v1/pets',
      headers: AUTH,
      startTimeoutMs: 15_000,
    },
  },
  ceiling: {
    id: 'ceiling',
    title: 'bare node:http',
    basePath: '',
    command: { args: [join(root, 'dist/bench/ceiling-server.js'), '{port}'], probePath: '/', startTimeoutMs: 15_000 },
  },
  // Prism routes on the paths without the servers' base path (its servers are {base_url} variables); it accepts
  // any bearer token. -v silent: logging costs it about half its throughput.
  prism: {
    id: 'prism',
    title: 'prism mock (CLI)',
    basePath: '',
    command: {
      args: [
        join(root, 'node_modules/@stoplight/prism-cli/dist/index.js'),
        'mock',
        join(root, 'openapi.yaml'),
        '-h',
        '127.0.0.1',
        '-p',
        '{port}',
        '-v',
        'silent',
      ],
      probePath: '/pets',
      headers: AUTH,
      startTimeoutMs: 30_000,
    },
  },
};

/** A mock holding `pets` pets (bench/seeded-mock.ts). */
export function seededMockCommand(pets: number): ServerCommand {
  return {
    args: [join(root, 'dist/bench/seeded-mock.js'), String(pets), '{port}'],
    probePath: '/__admin/health',
    startTimeoutMs: 120_000,
  };
}

/** Where the mock serves the library contract: the base path of its `servers` URL. */
export const LIBRARY_BASE_PATH = '/api';

/**
 * The mock serving the library contract, its authors seeded from a fixtures file (bench/library-scenarios.ts),
 * with room for as many more: a run of creates must not find the store full.
 */
export function libraryMockCommand(fixtures: string, records: number): ServerCommand {
  return {
    args: [
      join(root, 'dist/src/cli/petstore-mock.js'),
      '--quiet',
      '--contract',
      LIBRARY_CONTRACT,
      '--fixtures',
      fixtures,
      '--max-pets',
      String(2 * records),
      '--port',
      '{port}',
    ],
    // Answered by Prism, which the mock loads once it listens: no run measures that load.
    probePath: `${LIBRARY_BASE_PATH}/stats`,
    headers: AUTH,
    startTimeoutMs: 120_000,
  };
}
