import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';

const run = promisify(execFile);

// What `npm install /path/to/petstore-contract-toolkit` (or a git URL) leaves in another project: the package
// under node_modules, imported by its name through the exports map.
describe('the programmatic API from another project', () => {
  it('is imported by the package name and serves a mock; internals are not reachable', async () => {
    const project = await mkdtemp(join(tmpdir(), 'petstore-consumer-'));
    await mkdir(join(project, 'node_modules'));
    await symlink(packageRoot(), join(project, 'node_modules', 'petstore-contract-toolkit'), 'dir');
    await writeFile(
      join(project, 'use-mock.mjs'),
      `import { createMockServer, DEV_API_KEY } from 'petstore-contract-toolkit';
const mock = await createMockServer({ port: 0, fixtures: false });
const created = await fetch(mock.url + '/pets', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + DEV_API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'From elsewhere', categoryId: 1 }),
});
console.log(created.status, mock.store.size);
await mock.close();
try {
  await import('petstore-contract-toolkit/dist/src/mock/store/record-store.js');
} catch (error) {
  console.log(error.code);
}
`,
    );
    const { stdout } = await run(process.execPath, ['use-mock.mjs'], { cwd: project });
    expect(stdout.trim().split('\n')).toEqual(['201 1', 'ERR_PACKAGE_PATH_NOT_EXPORTED']);
  });
});
