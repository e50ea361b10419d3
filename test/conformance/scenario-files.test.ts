import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listScenarioFiles } from '../../src/conformance/list-scenario-files.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { spawnBin } from '../support/spawn-bin.js';
import { startMock } from '../support/start-mock.js';

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
