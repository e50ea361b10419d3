import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** A contract a test builds, as an openapi.yaml in a fresh folder of its own; its path. */
export async function writeContract(document: object): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'test-contract-')), 'openapi.yaml');
  await writeFile(file, stringify(document));
  return file;
}
