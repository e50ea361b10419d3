// The body of readContractOffThread's worker: reads one contract and posts back the document and Prism's model, or the failure.
import { parentPort, workerData } from 'node:worker_threads';
import { isAppError } from '../../contract/app-error.js';
import { readContractSource } from '../../contract/load-contract.js';

readContractSource(workerData as string).then(
  (source) => parentPort?.postMessage({ source }),
  (error: Error) =>
    parentPort?.postMessage({ failure: { code: isAppError(error) ? error.code : undefined, message: error.message } }),
);
