// The programmatic API: what other projects' test suites import.
export { AppError } from './contract/app-error.js';
export { type Contract, defaultContractPath, loadContract } from './contract/load-contract.js';
export { createMockServer, type MockServer } from './mock/create-mock-server.js';
export { DEV_API_KEY, type MockOptions } from './mock/mock-options.js';
export type { RecordStore, StoredRecord } from './mock/store/record-store.js';
export { type ConformanceOptions, runConformance } from './conformance/run-conformance.js';
export type { Finding, RunResult } from './conformance/run-result.js';
