import { setImmediate as nextTurn } from 'node:timers/promises';
import { compileContract, type Contract } from '../../contract/load-contract.js';
import { readContractOffThread } from './read-contract-off-thread.js';

/**
 * The contract as the file holds it now, compiled anew (not through loadContract's cache, which would keep every
 * version for the life of the process), off the request path: the file is read and validated in a worker thread
 * (see readContractOffThread), then compiled a step at a time, waiting for the event loop's next turn between two
 * operations or schemas, so that requests that came meanwhile are answered from the contract still served.
 * `compiling` is told how many operations, once the file has been read and found valid.
 */
export function loadFreshContract(file: string, compiling?: (operations: number) => void): Promise<Contract> {
  return compileContract(file, { read: readContractOffThread, pause: yieldToRequests, compiling });
}

/** Lets the event loop answer what is pending (setImmediate runs after I/O) before the next step. */
export function yieldToRequests(): Promise<void> {
  return nextTurn();
}
