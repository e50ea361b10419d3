import { Worker } from 'node:worker_threads';
import { AppError } from '../../contract/app-error.js';
import { type ContractSource, readContractSource } from '../../contract/load-contract.js';

// The worker is the compiled module beside this one; run from its TypeScript source (vitest), there is none, and
// the document is read on this thread.
const WORKER = import.meta.url.endsWith('.ts') ? undefined : new URL('./read-contract-worker.js', import.meta.url);

type Answer = { source: ContractSource } | { failure: { code: string | undefined; message: string } };

/**
 * readContractSource in a worker thread: parsing the YAML, validating it against the OpenAPI schema (swagger-parser
 * compiles that schema anew each time) and Prism's model of the operations take a third of a second for the stock
 * contract and seconds for a large one, in synchronous blocks that would stall every request of a mock reloading
 * under --watch. Only the result crosses back (structured clone keeps the shared and circular references between
 * the document and the model). Failures keep their code and message.
 */
export function readContractOffThread(file: string): Promise<ContractSource> {
  if (!WORKER) return readContractSource(file);
  const worker = new Worker(WORKER, { workerData: file });
  return new Promise<ContractSource>((resolve, reject) => {
    worker.once('message', (answer: Answer) => {
      if ('source' in answer) resolve(answer.source);
      else
        reject(
          answer.failure.code ? new AppError(answer.failure.code, answer.failure.message) : new Error(answer.failure.message),
        );
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`reading ${file} stopped (worker exit ${code})`)));
  }).finally(() => void worker.terminate());
}
