import { afterEach, describe, expect, it } from 'vitest';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { type PetStore, type PetStoreChoice, startPetStore } from '../support/independent-pet-store.js';
import { blockingCheckIds, runCli } from './run-cli.js';

// Correct servers written apart from the mock, each making a choice the contract leaves open: the runner must pass
// them, and still see what the choice is not (a name cut or changed is another name).
describe('a Pet Store written apart from the mock, choosing where the contract is silent', () => {
  let store: PetStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  const runAgainst = async (choices: readonly PetStoreChoice[], args: readonly string[] = []) => {
    store = await startPetStore(DEV_API_KEY, choices);
    return runCli(['--target', store.url, '--seed', '1', '-r', 'json', ...args]);
  };

  it('passes as it is (exit 0)', async () => {
    const run = await runAgainst([]);
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });

  it('passes when it keeps names in Unicode NFC, the combining-mark name among them', async () => {
    const run = await runAgainst(['nfc-names']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const passed = report.scenarios.filter((s) => s.outcome === 'passed').map((s) => s.id);
    expect(passed).toContain('valid-bodies/createPet/name/non-ascii');
  });

  it('passes when it trims the whitespace around names, recording what it kept of the padded one', async () => {
    const run = await runAgainst(['trimmed-names']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const padded = report.scenarios.find((s) => s.id === 'valid-bodies/createPet/name/padded-string');
    expect(padded?.outcome).toBe('passed');
    expect(padded?.observations).toContainEqual(
      expect.objectContaining({
        status: 201,
        note: expect.stringContaining('may trim'),
        body: expect.stringContaining('"name":"Padded '),
      }),
    );
  });

  it('passes when it refuses a blank name and one of 10,000 characters with 400, recording both', async () => {
    const run = await runAgainst(['bounded-names']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    for (const id of ['valid-bodies/createPet/name/empty-string', 'valid-bodies/createPet/name/long-string']) {
      const refused = report.scenarios.find((s) => s.id === id);
      expect(refused?.observations, id).toContainEqual(expect.objectContaining({ status: 400 }));
      expect(refused?.skipReason, id).toMatch(/^createPet refused name set to .*: the contract sets no (minLength|maxLength)/);
    }
  });

  it('passes when it refuses a categoryId below 1 with 400, recording each, and still takes the positive int64 ends', async () => {
    const run = await runAgainst(['positive-categories']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    for (const variant of ['zero', 'negative', 'int64-min', 'below-minus-2-53']) {
      const refused = report.scenarios.find((s) => s.id === `valid-bodies/createPet/categoryId/${variant}`);
      expect(refused?.observations, variant).toContainEqual(expect.objectContaining({ status: 400 }));
    }
    const passed = report.scenarios.filter((s) => s.outcome === 'passed').map((s) => s.id);
    expect(passed).toEqual(
      expect.arrayContaining(['valid-bodies/createPet/categoryId/int64-max', 'valid-bodies/createPet/categoryId/above-2-53']),
    );
  });

  it('passes when it refuses a body without Content-Type with 415, in the generated cases', async () => {
    // The shipped scenario file holds createPet to the seed's own 400 for that body; a generated case reads the
    // statuses alone, and RFC 9110 §8.3 lets a server take an untyped body as application/octet-stream.
    const run = await runAgainst(['415-without-json'], ['--case', 'media-types/*']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const untyped = report.scenarios.find((s) => s.id === 'media-types/createPet/no-content-type');
    expect(untyped?.observations).toContainEqual(expect.objectContaining({ status: 415 }));
  });
});
