import type { Check } from './check.js';

export const responseTime: Check = {
  id: 'response-time',
  severity: 'low',
  clause: '--max-response-time: the contract sets no latency; this is the run’s own budget',
  observed: 'applies',
  check: ({ exchange, settings }) => {
    if (!exchange.response || exchange.elapsedMs <= settings.maxResponseTimeMs) return undefined;
    return {
      title: `answered in ${Math.round(exchange.elapsedMs)} ms`,
      received: `${Math.round(exchange.elapsedMs)} ms`,
      documented: `at most ${settings.maxResponseTimeMs} ms (--max-response-time)`,
    };
  },
};
