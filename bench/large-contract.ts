import { readFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { defaultContractPath } from '../src/contract/load-contract.js';

/**
 * The stock contract with its pet paths copied `copies` times under /copyN (operation ids suffixed): a contract
 * of the size that made each --watch reload stall the mock for seconds (150 copies ≈ 1 MB of YAML once the
 * copies are written out). `version` changes info.version only, so that each save differs.
 */
export async function largeContract(copies: number, version = '1.0.0'): Promise<string> {
  const document = parse(await readFile(defaultContractPath(), 'utf8'));
  document.info.version = version;
  const originals = Object.entries(document.paths as Record<string, Record<string, { operationId?: string }>>);
  for (let copy = 1; copy <= copies; copy++) {
    for (const [path, item] of originals) {
      const cloned = structuredClone(item);
      for (const operation of Object.values(cloned)) {
        if (operation && typeof operation === 'object' && operation.operationId) operation.operationId += `Copy${copy}`;
      }
      document.paths[`/copy${copy}${path}`] = cloned;
    }
  }
  // No anchors: the copies are written out in full, as a contract of this size would be.
  return stringify(document, { aliasDuplicateObjects: false });
}
