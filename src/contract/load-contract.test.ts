import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from './load-contract.js';

async function contractFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'contract-')), 'openapi.yaml');
  await writeFile(file, text);
  return file;
}

const HEAD = 'openapi: 3.0.3\ninfo: {title: T, version: "1"}\n';

describe('loadContract', () => {
  it('refuses a file that is not OpenAPI 3.x, naming it', async () => {
    for (const text of ['foo: bar\n', 'swagger: "2.0"\n', '- a list\n']) {
      const file = await contractFile(text);
      await expect(loadContract(file)).rejects.toThrow(`Failed to load ${file}: not an OpenAPI 3.x document`);
    }
  });

  it('names the line and column of a YAML error, and the file of a missing one', async () => {
    const file = await contractFile(`${HEAD}paths: {\n`);
    await expect(loadContract(file)).rejects.toThrow(new RegExp(`Failed to read ${file}: line \\d+, column \\d+: `));
    await expect(loadContract(join(tmpdir(), 'no-such-contract.yaml'))).rejects.toThrow(/no-such-contract\.yaml: ENOENT/);
  });

  it('says what is invalid in an OpenAPI document, with its file name rather than [object Object]', async () => {
    const file = await contractFile(
      `${HEAD}paths:\n  /a:\n    get:\n      responses: {"200": {$ref: "#/components/responses/Nope"}}\n`,
    );
    const error = await loadContract(file).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain(`Failed to load ${file}: `);
    expect(error?.message).not.toContain('[object Object]');
    expect(error).toMatchObject({ code: 'contract_invalid' });
  });

  it('refuses an operationId used twice', async () => {
    const op = (id: string) => `{operationId: ${id}, responses: {"200": {description: ok}}}`;
    const file = await contractFile(`${HEAD}paths:\n  /a: {get: ${op('same')}}\n  /b: {get: ${op('same')}}\n`);
    await expect(loadContract(file)).rejects.toThrow("operationId 'same' is used twice");
  });

  it('refuses a schema that refers to itself with a clear contract error, not a crash', async () => {
    const node = '{type: object, properties: {child: {$ref: "#/components/schemas/Node"}}}';
    const body = '{content: {application/json: {schema: {$ref: "#/components/schemas/Node"}}}}';
    const file = await contractFile(
      `${HEAD}paths:\n  /a: {post: {operationId: a, requestBody: ${body}, responses: {"200": {description: ok}}}}\ncomponents: {schemas: {Node: ${node}}}\n`,
    );
    await expect(loadContract(file)).rejects.toThrow(/Failed to load .*openapi\.yaml: POST \/a: the schema of body cannot be compiled: .*refers to itself/);
  });
});
