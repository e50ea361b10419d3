import { Worker } from 'node:worker_threads';
import { AppError } from '../contract/app-error.js';
import { readContractDocument } from '../contract/load-contract.js';

// The worker is the compiled module beside this one; run from its TypeScript source (vitest), there is none, and
// the document is read on this thread.
const WORKER = import.meta.url.endsWith('.ts') ? undefined : new URL('./read-contract-worker.js', import.meta.url);

type Answer = { document: object } | { failure: { code: string | undefined; message: string } };

/**
 * readContractDocument in a worker thread: parsing the YAML and validating it against the OpenAPI schema
 * (swagger-parser compiles that schema anew each time) take a third of a second for the stock contract and
 * seconds for a large one, all in one synchronous block, which would stall every request of a mock reloading
 * under --watch. Only the result crosses back (structured clone keeps the dereferenced document's shared and
 * circular references). Failures keep their code and message.
 */
export function readContractOffThread(file: string): Promise<object> {
  if (!WORKER) return readContractDocument(file);
  const worker = new Worker(WORKER, { workerData: file });
  return new Promise<object>((resolve, reject) => {
    worker.once('message', (answer: Answer) => {
      if ('document' in answer) resolve(answer.document);
      else reject(answer.failure.code ? new AppError(answer.failure.code, answer.failure.message) : new Error(answer.failure.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`reading ${file} stopped (worker exit ${code})`)));
  }).finally(() => void worker.terminate());
}
