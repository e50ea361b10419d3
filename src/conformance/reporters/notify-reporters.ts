import type { Reporter, ReporterContext } from './reporter.js';

type Hook = 'onRunStart' | 'onScenarioEnd' | 'onRunEnd' | 'onRunError';
type EventOf<H extends Hook> = Parameters<NonNullable<Reporter[H]>>[0];

/** The one fan-out of a run's events: every reporter that has the hook, in order, one at a time. */
export async function notifyReporters<H extends Hook>(
  reporters: readonly Reporter[],
  hook: H,
  event: EventOf<H>,
  context: ReporterContext,
): Promise<void> {
  for (const reporter of reporters) {
    const handler = reporter[hook] as ((event: EventOf<H>, context: ReporterContext) => void | Promise<void>) | undefined;
    await handler?.call(reporter, event, context);
  }
}
