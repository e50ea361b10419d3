import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { useCrudServer } from './use-crud-server.js';

// An order's petId refers to a pet (`/pets/{petId}`): a correct server may check that the pet exists.
const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';
const SHOP = 'test/contracts/references/openapi.yaml';
// The same shop with `/<collection>/{id}` paths and fields named by convention (customer_id, orderId).
const CONVENTION = 'test/contracts/references-by-convention/openapi.yaml';

const { runAgainst } = useCrudServer(['--seed', '1', '-r', 'json']);

describe('a body field that refers to another resource', () => {
  it('is sent with the id of a record the case created, in the body and wherever the case expects it back', async () => {
    const contract = await loadContract(EVOLVED);
    const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: ['valid-bodies'], maxCases: undefined });
    const only = cases.find((c) => c.id === 'valid-bodies/createOrder/required-fields-only');
    const steps = only?.steps ?? [];
    expect(steps[0]?.operation.operationId).toBe('createPet');
    expect(steps[0]?.capture).toBeDefined();
    const order = steps.find((s) => s.operation.operationId === 'createOrder');
    const template = `{{${steps[0]?.capture}.body.id}}`;
    expect(order?.body).toEqual({ kind: 'json', value: expect.objectContaining({ petId: template }) });
    expect(order?.expect.body).toEqual(expect.objectContaining({ petId: template }));
  });

  it('fails no case of a correct server that refuses an order for a pet it does not have, and records the edge values', async () => {
    // The CRUD server reads JSON with JSON.parse (int64s lose digits): it fails some cases either way, so the run
    // that checks references is held to the same failures as the one that does not, and to no other.
    const failed = (report: Awaited<ReturnType<typeof run.report>>) =>
      report.scenarios.filter((s) => s.outcome === 'failed').map((s) => s.id);
    const run = await runAgainst(EVOLVED);
    const plain = failed(await run.report());
    const checking = await runAgainst(EVOLVED, 'checks-references');
    const report = await checking.report();
    expect(
      failed(report).filter((id) => !plain.includes(id)),
      checking.out,
    ).toEqual([]);
    const edge = report.scenarios.find((s) => s.id === 'valid-bodies/createOrder/petId/zero');
    expect(edge?.observations, checking.out).toContainEqual(expect.objectContaining({ status: 404 }));
    expect(edge?.skipReason).toMatch(/petId refers to a pets record, and a server may check that it exists/);
  });

  it.each([SHOP, CONVENTION])(
    '%s: creates a chain of referenced records in order (a line names an order, which names a customer)',
    async (shop) => {
      const contract = await loadContract(shop);
      const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: ['effects'], maxCases: undefined });
      const removal = cases.find((c) => c.steps.some((s) => s.operation.operationId === 'deleteLine'));
      expect(removal?.steps.map((s) => s.operation.operationId).slice(0, 3)).toEqual([
        'createCustomer',
        'createOrder',
        'createLine',
      ]);
      const failed = async (breakage?: 'checks-references') => {
        const run = await runAgainst(shop, breakage);
        return { run, ids: (await run.report()).scenarios.filter((s) => s.outcome === 'failed').map((s) => s.id) };
      };
      const plain = await failed();
      const checking = await failed('checks-references');
      expect(
        checking.ids.filter((id) => !plain.ids.includes(id)),
        checking.run.out,
      ).toEqual([]);
    },
  );
});
