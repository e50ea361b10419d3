import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/load-contract.js';
import { generateCases } from './generate-cases.js';

// Path parameters no resource of the contract names: the example where the contract gives one, else a value of the
// case's own, the same in every step of the case.
describe('path parameters before the first resource of a path', async () => {
  const steps = async (file: string, caseId: string) => {
    const { cases } = generateCases(await loadContract(file), { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
    return cases.find((c) => c.id === caseId)?.steps ?? [];
  };

  it("take the contract's example, shared by every case", async () => {
    const made = await steps('test/contracts/workspace-tasks/openapi.yaml', 'effects/deleteTask/deleted-is-gone');
    expect(made.length).toBeGreaterThan(2);
    expect(made.every((s) => s.path.workspace === 'acme-eng')).toBe(true);
  });

  it('are drawn within their schema for each case where it gives none, one value through the case', async () => {
    const [first, second] = await Promise.all(
      ['effects/deleteIssue/deleted-is-gone', 'effects/replaceIssue/update-took-effect'].map((id) =>
        steps('test/contracts/repo-issues/openapi.yaml', id),
      ),
    );
    const owners = (made: typeof first) => [...new Set(made?.map((s) => s.path.owner))];
    expect(owners(first)).toHaveLength(1);
    expect(owners(second)).toHaveLength(1);
    expect(owners(first)[0]).not.toBe(owners(second)[0]);
    expect(String(owners(first)[0])).toMatch(/^[a-z0-9][a-z0-9-]{0,38}$/);
  });
});
