import { describeCredential } from '../../http/describe-credential.js';
import type { Check } from './check.js';

export const authEnforced: Check = {
  id: 'auth-enforced',
  severity: 'critical',
  clause:
    "Authentication: a request with a missing or invalid key, or a header not of the form Bearer <API_KEY> (or the key not where the contract's security scheme puts it), is not served",
  observed: 'applies',
  // Only serving such a request is a security failure. Which refusal came (401, or a 3xx/4xx the contract does
  // not document) is status-expected's and status-documented's to judge.
  check: ({ operation, credentials, exchange }) => {
    const status = exchange.response?.status;
    if (operation.auth !== 'key' || credentials === 'run-key' || status === undefined || status < 200 || status > 299) {
      return undefined;
    }
    const { missing, carried } = describeCredential(exchange.request);
    return {
      title: `a request ${carried === undefined ? `without ${missing}` : `with ${carried}`} was served`,
      received: `HTTP ${status}`,
      documented: '401 with an Error body',
    };
  },
};
