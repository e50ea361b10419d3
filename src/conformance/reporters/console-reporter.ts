import { terminalText as t } from '../../shared/terminal-text.js';
import type { RunResult, ScenarioResult } from '../run-result.js';
import { describeCause } from '../judge/likely-causes.js';
import { caseOrigin } from './case-origin.js';
import { describeFinding } from './describe-finding.js';
import { describeCreated } from './describe-created.js';
import { plural } from './plural.js';
import { reportOrder } from './report-order.js';
import { STOP_TITLES } from './stop-titles.js';
import type { Reporter, ReporterContext } from './reporter.js';

const progress = new WeakMap<ReporterContext, { total: number; done: number; failed: number }>();

const MARKS = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;
// SGR colours (ECMA-48 §8.3.117), used only when the context allows it: a terminal, NO_COLOR unset.
const COLOURS = { passed: '32', failed: '31', skipped: '33', hint: '36' } as const;

/**
 * The console: a line when the run starts, then, at its end, every case in report order (file order, then
 * generated cases by id) with its findings and observations, the totals and the verdict. Cases finish in any
 * order under --concurrency; printing them at the end keeps two runs' output comparable line by line.
 * Every text a target sent goes through terminalText: it cannot colour, move or forge a line.
 */
export const consoleReporter: Reporter = {
  name: 'console',
  // What runs is said on a terminal only, as the progress line: the output itself begins with the likely causes.
  onRunStart: ({ target, scenarios, files, seed }, context) => {
    progress.set(context, { total: scenarios, done: 0, failed: 0 });
    context.progress?.(
      `conformance: ${plural(scenarios, 'case')} from ${plural(files, 'source')} against ${t(target)}, seed ${seed}`,
    );
  },
  // On a terminal, a line that counts cases as they end: the cases themselves are printed in order at the end.
  onScenarioEnd: (scenario, context) => {
    const counts = progress.get(context);
    if (!counts || !context.progress) return;
    counts.done++;
    if (scenario.outcome === 'failed') counts.failed++;
    context.progress(`${counts.done}/${plural(counts.total, 'case')} done, ${counts.failed} failed`);
  },
  onRunEnd: (result, context) => {
    printCauses(result, context);
    for (const scenario of reportOrder(result.scenarios)) printScenario(scenario, context);
    printSummary(result, context);
  },
};

function paint(context: ReporterContext, colour: string, text: string): string {
  return context.color ? `\u001b[${colour}m${text}\u001b[0m` : text;
}

function printScenario(scenario: ScenarioResult, context: ReporterContext): void {
  const mark = paint(context, COLOURS[scenario.outcome], MARKS[scenario.outcome]);
  const skip = scenario.skipReason ? ` (${t(scenario.skipReason)})` : '';
  context.print(`${mark} ${t(caseOrigin(scenario))} › ${t(scenario.name)} [${t(scenario.id)}]${skip}`);
  for (const finding of scenario.findings) context.print(describeFinding(finding, t).replace(/^/gm, '     '));
  for (const o of scenario.observations) {
    context.print(
      `     observed, step ${o.step} (${o.operationId}): ${t(o.note)}: ${o.status ?? 'no answer'} ${t(o.body.slice(0, 200))}`,
    );
  }
}

const CAUSES_SHOWN = 5;

/** The headline: one line for a server with one bug, before any case. */
function printCauses(result: RunResult, context: ReporterContext): void {
  const { causes } = result;
  if (causes.length === 0) return;
  for (const cause of causes.slice(0, CAUSES_SHOWN)) {
    const label = causes.length === 1 ? 'Likely cause' : `Likely cause ${cause.rank} of ${causes.length}`;
    context.print(paint(context, COLOURS.failed, `${label}: ${t(describeCause(cause))}`));
  }
  if (causes.length > CAUSES_SHOWN) context.print(`(${causes.length - CAUSES_SHOWN} more likely causes in report.html)`);
  context.print('');
}

function printSummary(result: RunResult, context: ReporterContext): void {
  const { totals } = result;
  const severities = Object.entries(totals.bySeverity)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  context.print('');
  context.print(`conformance against ${t(result.target)}:`);
  if (result.resources !== undefined) context.print(`Resources inferred: ${t(result.resources)}`);
  const created = describeCreated(result);
  if (created !== undefined) context.print(t(created));
  context.print(
    `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped of ${plural(totals.scenarios, 'case')}; ` +
      `${plural(totals.exchanges, 'request')}; ${plural(totals.findings, 'finding')}${severities ? ` (${severities})` : ''}; ` +
      `${plural(totals.observations, 'observation')}; ${(result.durationMs / 1000).toFixed(1)} s`,
  );
  for (const hint of result.hints) context.print(paint(context, COLOURS.hint, `Hint: ${t(hint)}`));
  if (result.stopped) context.print(paint(context, COLOURS.failed, `Stopped: ${t(result.stopped.reason)}`));
  const verdict = result.stopped ? `STOPPED (${STOP_TITLES[result.stopped.kind].long})` : result.verdict.toUpperCase();
  const colour = result.verdict === 'passed' && !result.stopped ? COLOURS.passed : COLOURS.failed;
  context.print(
    `${paint(context, colour, `Verdict: ${verdict}`)} (--fail-on ${result.settings.failOn}, seed ${result.settings.seed})`,
  );
}
