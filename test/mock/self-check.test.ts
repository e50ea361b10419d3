import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { contractViolations } from '../support/contract-violations.js';

// The helper every mock test runs over every answer: it must still find what the runner's checks find.
describe('the mock self-check (the runner checks over the mock answers)', async () => {
  const contract = await loadContract();
  const answer = (operationId: string | undefined, status: number, body: string, contentType = 'application/json') => ({
    method: 'POST',
    url: '/v1/pets',
    operationId,
    status,
    headers: { 'content-type': contentType },
    body,
  });

  it('finds a body that breaks the schema, a wrong media type, an undocumented status and an Error status that differs', () => {
    expect(contractViolations(contract, [answer('createPet', 201, '{"name":"a","categoryId":1}')]).join()).toMatch(/body-schema/);
    expect(
      contractViolations(contract, [answer('createPet', 201, '{"id":1,"name":"a","categoryId":1}', 'text/html')]).join(),
    ).toMatch(/content-type-json/);
    expect(contractViolations(contract, [answer('createPet', 418, '{"code":"x","message":"y","status":418}')]).join()).toMatch(
      /status-documented/,
    );
    expect(contractViolations(contract, [answer('createPet', 400, '{"code":"x","message":"y","status":401}')]).join()).toMatch(
      /error-status-matches/,
    );
  });

  it('passes a conforming answer and a deliberate, documented deviation', () => {
    expect(
      contractViolations(contract, [answer('createPet', 201, '{"id":1,"name":"a","categoryId":1,"status":"available"}')]),
    ).toEqual([]);
    expect(
      contractViolations(contract, [answer('createPet', 409, '{"code":"store_full","message":"full","status":409}')]),
    ).toEqual([]);
  });
});
