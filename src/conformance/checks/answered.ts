import type { Check } from './check.js';

export const answered: Check = {
  id: 'answered',
  severity: 'high',
  clause: 'Endpoints: every operation answers with one of its documented responses',
  observed: 'applies',
  check: ({ exchange, settings }) => {
    if (!exchange.error) return undefined;
    return exchange.error.kind === 'timeout'
      ? {
          title: `no answer within --timeout (${settings.timeoutMs} ms)`,
          received: exchange.error.message,
          documented: 'an HTTP answer',
        }
      : { title: 'the connection failed', received: exchange.error.message, documented: 'an HTTP answer' };
  },
};
