import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/mock/error-codes.js';
import { readAllDocs, readDoc } from './support/read-docs.js';
import { startMock } from './support/start-mock.js';

const run = promisify(execFile);

describe('the docs', async () => {
  const pages = await readAllDocs();
  const mock = await startMock();
  const address = new URL(mock.url).host;
  const curlLines = pages.flatMap((page) => page.text.split('\n')).filter((line) => line.startsWith('curl '));

  it('has curl lines for every operation of the contract', () => {
    for (const path of ['/v1/pets ', '/v1/pets?', '/v1/pets/1', '/v1/messages']) {
      expect(curlLines.some((line) => line.includes(path))).toBe(true);
    }
    expect(curlLines.some((line) => line.includes('-X POST http://127.0.0.1:4010/v1/pets '))).toBe(true);
  });

  it('has curl lines that work as printed (on the test mock’s port)', async () => {
    for (const line of curlLines) {
      const command = `${line.replaceAll('127.0.0.1:4010', address)} -o /dev/null -w '%{http_code}'`;
      // A line that asks for a fault gets no answer (curl prints 000 and fails); one that asks for a status gets it.
      const fault = /Prefer: fault=(reset|empty|hang)/.test(line);
      const { stdout } = await run('sh', ['-c', command]).catch((error: { stdout: string }) => {
        if (!fault) throw error;
        return { stdout: error.stdout };
      });
      const status = Number(stdout.trim().slice(-3));
      const asked = /Prefer: code=(\d{3})/.exec(line)?.[1];
      if (fault) expect(status, line).toBe(0);
      else if (asked) expect(status, line).toBe(Number(asked));
      else expect(status, line).toBeLessThan(300);
    }
  });

  it('documents every error code the mock answers, with its status', async () => {
    const errorCodes = await readDoc('docs/reference/error-codes.md');
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(errorCodes).toContain(`| \`${code}\` | ${status} |`);
    }
  });
});
