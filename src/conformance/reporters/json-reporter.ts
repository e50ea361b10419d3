import { stringifyJson } from '../../contract/lossless-json.js';
import type { Reporter } from './reporter.js';

/** report.json: the whole result, the one source every other format is made from. */
export const jsonReporter: Reporter = {
  name: 'json',
  files: ['report.json'],
  onRunEnd: async (result, { writeFile }) => {
    await writeFile('report.json', `${stringifyJson(result, 2)}\n`);
  },
  // No result: the verdict says the run did not happen, and why, so no earlier report is mistaken for this one.
  onRunError: async (notRun, { writeFile }) => {
    const report = { tool: { name: 'conformance' }, verdict: 'not-run', ...notRun };
    await writeFile('report.json', `${JSON.stringify(report, null, 2)}\n`);
  },
};
