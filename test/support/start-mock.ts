import { afterAll, expect } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import type { AnsweredExchange, MockOptions } from '../../src/mock/mock-options.js';
import { contractViolations } from './contract-violations.js';

/**
 * Starts a mock on 127.0.0.1:0 for one test file and closes it afterwards. Every answer it sends is checked
 * against openapi.yaml when the file ends (the self-check): a response the contract does not allow fails the
 * file unless it is one of the deliberate deviations listed in contract-violations.ts.
 */
export async function startMock(options: Omit<MockOptions, 'port' | 'host'> = {}): Promise<MockServer> {
  const exchanges: AnsweredExchange[] = [];
  const onExchange = (e: AnsweredExchange) => {
    exchanges.push(e);
    options.onExchange?.(e);
  };
  const mock = await createMockServer({ ...options, port: 0, host: '127.0.0.1', onExchange });
  afterAll(async () => {
    await mock.close();
    expect(contractViolations(mock.contract, exchanges)).toEqual([]);
  });
  return mock;
}
