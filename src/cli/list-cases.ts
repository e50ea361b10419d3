import { planRun, type PlanOptions } from '../conformance/cases/plan-run.js';
import { skipReason } from '../conformance/cases/select-cases.js';
import { plural } from '../conformance/reporters/plural.js';
import { terminalText } from '../shared/terminal-text.js';
import type { CliIo } from './run-conformance-cli.js';

/** `--list`: the cases a run with the same options would send, one `id  name` line each; nothing is sent. */
export async function listCases(plan: PlanOptions, io: CliIo): Promise<number> {
  const { cases } = await planRun(plan);
  const sent = cases.filter((c) => skipReason(c, plan) === undefined);
  for (const c of sent) io.out(`${terminalText(c.id)}  ${terminalText(c.name)}\n`);
  const shard = plan.shard ? ` in shard ${plan.shard.index}/${plan.shard.count}` : '';
  const left = cases.length - sent.length;
  io.err(
    `${plural(sent.length, 'case')}${shard}${left > 0 ? ` (${left} more skipped by --read-only or tags)` : ''}; nothing was sent\n`,
  );
  return 0;
}
