// The body of readContractOffThread's worker: reads one contract and posts back the document, or the failure.
import { parentPort, workerData } from 'node:worker_threads';
import { isAppError } from '../contract/app-error.js';
import { readContractDocument } from '../contract/load-contract.js';

readContractDocument(workerData as string).then(
  (document) => parentPort?.postMessage({ document }),
  (error: Error) => parentPort?.postMessage({ failure: { code: isAppError(error) ? error.code : undefined, message: error.message } }),
);
