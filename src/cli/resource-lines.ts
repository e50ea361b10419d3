import type { Contract } from '../contract/load-contract.js';
import { describeResources } from '../contract/resources/describe-resources.js';
import { inferResources } from '../contract/resources/infer-resources.js';
import { terminalText } from '../shared/terminal-text.js';

/**
 * `--verbose`: what both tools infer from the contract, a line per resource and per operation (its id field and
 * where it was read, its operations, lists' filters and paging, references, and why anything stays stateless).
 * The contract's names are its author's text: escaped for the terminal.
 */
export function resourceLines(contract: Contract): string[] {
  return [
    'Resources inferred, in detail:',
    ...describeResources(inferResources(contract)).map((line) => `  ${terminalText(line)}`),
  ];
}
