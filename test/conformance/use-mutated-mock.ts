import { afterAll } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { type Mutation, startMutatingProxy } from '../support/mutating-proxy.js';
import { type CliRun, runCli } from './run-cli.js';

/**
 * A fresh mock behind a mutating proxy per run, the conformance CLI against it with a JSON report; closed after the
 * file. `contract` serves and checks another contract than openapi.yaml.
 */
export function useMutatedMock(): (mutation: Mutation, args?: readonly string[], contract?: string) => Promise<CliRun> {
  const mocks: MockServer[] = [];
  afterAll(() => Promise.all(mocks.map((m) => m.close())));
  return async (mutation, args = [], contract = undefined) => {
    const mock = await createMockServer({ port: 0, host: '127.0.0.1', ...(contract ? { contract } : {}) });
    mocks.push(mock);
    const proxy = await startMutatingProxy(mock.url, mutation);
    try {
      return await runCli(['--target', proxy.url, '--reporter', 'json', ...(contract ? ['--contract', contract] : []), ...args]);
    } finally {
      await proxy.close();
    }
  };
}
