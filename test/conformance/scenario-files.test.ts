import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listScenarioFiles } from '../../src/conformance/cases/list-scenario-files.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { spawnBin } from '../support/spawn-bin.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

describe('--scenarios', async () => {
  const root = await mkdtemp(join(tmpdir(), 'scenario-files-'));
  for (const file of ['a/x/one.yaml', 'a/y/two.yaml', 'a/y/notes.txt', 'b/three.yml']) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), 'scenarios: []\n');
  }

  it('takes a folder, a file, or a glob with wildcards in any segment, sorted, YAML files only', () => {
    expect(listScenarioFiles(join(root, 'a/y'))).toEqual([join(root, 'a/y/two.yaml')]);
    expect(listScenarioFiles(join(root, 'b/three.yml'))).toEqual([join(root, 'b/three.yml')]);
    expect(listScenarioFiles(`${root}/a/*/*.yaml`)).toEqual([join(root, 'a/x/one.yaml'), join(root, 'a/y/two.yaml')]);
    expect(listScenarioFiles(`${root}/**/*`)).toEqual([
      join(root, 'a/x/one.yaml'),
      join(root, 'a/y/two.yaml'),
      join(root, 'b/three.yml'),
    ]);
  });

  it('names the pattern or the path when nothing is there', () => {
    expect(() => listScenarioFiles(`${root}/c/*.yaml`)).toThrow(/No scenario file \(\*\.yaml, \*\.yml\) matches .*c\/\*\.yaml/);
    expect(() => listScenarioFiles(join(root, 'nowhere'))).toThrow(/Failed to read .*nowhere: no such file or folder/);
  });

  it('runs the shipped suite by default from a folder without conformance/', async () => {
    const mock = await startMock();
    const run = spawnBin(
      'conformance',
      ['--target', mock.url, '--report-dir', join(root, 'reports'), '--tags', 'messages'],
      {
        PETSTORE_API_KEY: DEV_API_KEY,
      },
      root,
    );
    const { code, stdout } = await run.exited;
    expect(code).toBe(0);
    expect(stdout).toMatch(/messages\.yaml/);
  });
});

describe('{{env.NAME}} in scenario files', async () => {
  const mock = await startMock();
  const dir = await mkdtemp(join(tmpdir(), 'env-scenarios-'));
  const file = join(dir, 'env.yaml');
  await writeFile(
    file,
    `scenarios:
  - name: a pet named from the environment
    description: Given PET_NAME, when a pet is created with it and a header holding the key, then the name comes back.
    tags: [mutating]
    steps:
      - operation: createPet
        headers: { x-echo: '{{env.PETSTORE_API_KEY}}' }
        body: { name: '{{env.PET_NAME}} {{run.id}}', categoryId: 1 }
        expect: { status: 201, body: { name: 'Env {{run.id}}', categoryId: 2 } }
`,
  );

  it('fills in the variable, and a value that is the key is recorded as redacted', async () => {
    const run = await runCli(['--target', mock.url, '--scenarios', file, '--no-generate'], { PET_NAME: 'Env' });
    const report = await run.report();
    // categoryId 2 was expected and 1 sent: one finding, whose recorded request must not hold the key.
    const finding = report.scenarios.flatMap((s) => s.findings)[0];
    expect(finding?.title).toMatch(/body\.categoryId: expected 2, received 1/);
    expect(finding?.request.body).toMatch(/"name":"Env [0-9a-f]{8}"/);
    expect(JSON.stringify(finding)).not.toContain(DEV_API_KEY);
  });

  it('refuses a variable that is not set, naming the file, line and field, before sending anything', async () => {
    const run = await runCli(['--target', mock.url, '--scenarios', file, '--no-generate']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /env\.yaml: line 8: scenarios\[0\]\.steps\[0\]\.body\.name: \{\{env\.PET_NAME\}\}: the environment variable PET_NAME is not set/,
    );
  });
});
