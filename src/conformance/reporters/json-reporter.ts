import { stringifyJson } from '../../contract/lossless-json.js';
import type { Reporter } from './reporter.js';

/** report.json: the whole result, the one source every other format is made from. */
export const jsonReporter: Reporter = {
  name: 'json',
  onRunEnd: async (result, { writeFile }) => {
    await writeFile('report.json', `${stringifyJson(result, 2)}\n`);
  },
};
