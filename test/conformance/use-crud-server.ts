import { afterEach, expect, it } from 'vitest';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { type CrudBreakage, type CrudServer, startCrudServer } from '../support/crud-server.js';
import { type CliRun, namedCheckIds, runCli } from './run-cli.js';

/**
 * A CRUD server of a contract for each test, closed after it, and the runner run against it with `args` after its
 * --target and --contract.
 */
export function useCrudServer(args: readonly string[]): {
  /** `env` for the runner (PETSTORE_API_KEY), `serverKey` the one key the server takes (the development key). */
  readonly runAgainst: (
    contract: string,
    breakage?: CrudBreakage,
    env?: Record<string, string | undefined>,
    serverKey?: string,
  ) => Promise<CliRun>;
  readonly url: () => string;
  /** A test for each server, broken in one way, that the run fails (exit 1) and names the check that saw it. */
  readonly failsEach: (broken: readonly Broken[]) => void;
} {
  let server: CrudServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const runAgainst = async (
    contract: string,
    breakage?: CrudBreakage,
    env: Record<string, string | undefined> = {},
    serverKey = DEV_API_KEY,
  ) => {
    server = await startCrudServer(contract, serverKey, breakage);
    return runCli(['--target', server.url, '--contract', contract, ...args], env);
  };
  return {
    runAgainst,
    url: () => (server as CrudServer).url,
    failsEach: (broken) =>
      it.each(broken)('fails a server of $contract whose $breakage, naming $check', async ({ contract, breakage, check }) => {
        const run = await runAgainst(contract, breakage);
        expect(run.code, run.out).toBe(1);
        // A finding's consequences name checks too: a PATCH that drops a required field is a body-schema finding
        // first, with update-took-effect as its consequence.
        expect(namedCheckIds(await run.report())).toContain(check);
      }),
  };
}

export interface Broken {
  readonly contract: string;
  readonly breakage: CrudBreakage;
  readonly check: string;
}
