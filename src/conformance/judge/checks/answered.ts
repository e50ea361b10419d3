import type { TransportError } from '../../http/exchange.js';
import type { Check, CheckSettings } from './check.js';

export const answered: Check = {
  id: 'answered',
  severity: 'high',
  clause: 'Endpoints: every operation answers with one of its documented responses',
  observed: 'applies',
  check: ({ exchange, settings }) => {
    if (!exchange.error) return undefined;
    return { title: TITLES[exchange.error.kind](settings), received: exchange.error.message, documented: 'an HTTP answer' };
  },
};

const TITLES: Readonly<Record<TransportError['kind'], (settings: CheckSettings) => string>> = {
  timeout: (settings) => `no answer within --timeout (${settings.timeoutMs} ms)`,
  connection: () => 'the connection failed',
  'too-large': () => 'the answer is larger than --max-response-bytes: it was read no further',
  undecodable: () => 'the answer has a body the runner cannot decode',
};
