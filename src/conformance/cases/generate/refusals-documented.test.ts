import { describe, expect, it } from 'vitest';
import { findResponse } from '../../../contract/find-response.js';
import { loadContract } from '../../../contract/load-contract.js';
import type { Step } from '../scenario.js';
import { generateCases } from './generate-cases.js';

// The statuses a step would accept, once matched against 100..599: a step that accepts no success fails a server
// that takes the input, so the contract must document the refusal it demands.
function acceptsASuccess(step: Step): boolean {
  return (step.expect.status ?? []).some((s) => String(s)[0] === '2');
}

// Seed, Authentication (and RFC 6750 §3.1): a request without valid credentials to an operation that requires them
// is refused with 401, whether or not the operation lists the 401.
const refusedForCredentials = (step: Step) =>
  step.operation.auth === 'key' && step.auth !== 'default' && (step.expect.status ?? []).every((s) => s === 401);

// A `default` response documents an error's shape, not a refusal of this input.
const documents = (step: Step, status: number | string) =>
  (findResponse(step.operation, Number(String(status).replace('XX', '00')))?.code ?? 'default') !== 'default';

describe('generated cases assert only the refusals the contract documents', async () => {
  const contract = await loadContract();
  const { cases } = generateCases(contract, { seed: 1, token: 'petstore-dev-key', kinds: undefined, maxCases: undefined });
  const demanding = cases.flatMap((scenario) =>
    scenario.steps
      .filter((step) => step.expect.status !== undefined && !acceptsASuccess(step) && !refusedForCredentials(step))
      .map((step) => ({ id: scenario.id, step })),
  );

  it('every step that demands a refusal targets an operation documenting one of the statuses it accepts', () => {
    expect(demanding.length).toBeGreaterThan(20);
    const undocumented = demanding
      .filter(({ step }) => !(step.expect.status ?? []).some((s) => documents(step, s)))
      .map(({ id }) => id);
    expect(undocumented).toEqual([]);
  });

  it('an operation documenting no refusal (createMessage) gets observations for input it may take, never a demand', () => {
    const message = cases.filter((c) => /^(media-types|invalid-bodies|parameters)\/createMessage\//.test(c.id));
    const negative = message.filter((c) => !/charset-parameter|upper-case/.test(c.id));
    expect(negative.map((c) => c.id)).toContain('media-types/createMessage/text-plain');
    for (const scenario of negative) {
      for (const step of scenario.steps) {
        expect(step.observe, scenario.id).toBeDefined();
        expect(step.expect.status, scenario.id).toBeUndefined();
      }
    }
  });

  // The seed's own words (a missing Content-Type is a cause of createPet's 400) are held by the shipped scenario
  // file conformance/invalid-bodies.yaml; a generated case reads only the statuses, and RFC 9110 lets 415 refuse both.
  it('an operation documenting its 400 (createPet) still demands it, or 415, for text/plain and a missing Content-Type', () => {
    const statusOf = (id: string) => cases.find((c) => c.id === id)?.steps[0]?.expect.status;
    expect(statusOf('media-types/createPet/text-plain')).toEqual([400, 415]);
    expect(statusOf('media-types/createPet/no-content-type')).toEqual([400, 415]);
    expect(statusOf('invalid-bodies/createPet/name/missing')).toEqual([400]);
  });
});
