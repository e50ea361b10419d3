import { AppError } from '../contract/app-error.js';
import { parseJson } from '../contract/lossless-json.js';
import type { Cleanup } from './clean-up.js';
import type { CreatedCount } from './created-resources.js';
import { countCoverage } from './judge/operation-coverage.js';
import type { RunResult, ScenarioResult } from './run-result.js';
import { summarise } from './run-conformance.js';

/**
 * The shards of one run (`--shard i/n` on several machines), as one result: each case once (the probe, which every
 * shard sends, from the first report), the coverage counted again over all of them, the verdict failed if any
 * shard failed or stopped. The shards ran side by side, so the run took as long as the longest.
 */
export function mergeResults(results: readonly RunResult[]): RunResult {
  const [first] = results;
  if (first === undefined) throw new AppError('usage', '--merge needs at least one report.json');
  const seen = new Set<string>();
  const scenarios: ScenarioResult[] = [];
  for (const scenario of results.flatMap((r) => r.scenarios)) {
    if (seen.has(scenario.id)) continue;
    seen.add(scenario.id);
    scenarios.push(scenario);
  }
  const documented = [
    ...new Map(
      results.flatMap((r) => r.coverage.filter((row) => row.documented).map((row) => [`${row.operationId} ${row.status}`, row])),
    ).values(),
  ];
  const stopped = results.find((r) => r.stopped !== undefined)?.stopped;
  return summarise(scenarios, {
    tool: first.tool,
    target: first.target,
    contract: first.contract,
    startedAt: results.map((r) => r.startedAt).sort()[0] as string,
    durationMs: Math.max(...results.map((r) => r.durationMs)),
    settings: { ...first.settings, shard: undefined },
    coverage: countCoverage(documented, scenarios),
    stopped,
    cutShort: results.find((r) => r.cutShort !== undefined)?.cutShort,
    targetGone: results.find((r) => r.targetGone !== undefined)?.targetGone,
    hints: [...new Set(results.flatMap((r) => r.hints))],
    ...leftBehind(results),
  });
}

// Each shard created, and cleaned up, resources of its own: the run's are their sums.
function leftBehind(results: readonly RunResult[]): Pick<RunResult, 'created' | 'cleanup'> {
  const created = new Map<string, CreatedCount>();
  for (const c of results.flatMap((r) => r.created ?? [])) {
    const known = created.get(c.path);
    created.set(c.path, {
      collection: c.collection,
      path: c.path,
      count: (known?.count ?? 0) + c.count,
      deletable: c.deletable || known?.deletable === true,
      ...((c.kept ?? known?.kept) ? { kept: c.kept ?? known?.kept } : {}),
    });
  }
  const cleanups = results.flatMap((r) => (r.cleanup === undefined ? [] : [r.cleanup]));
  const sum = (key: keyof Cleanup) => cleanups.reduce((n, c) => n + c[key], 0);
  return {
    created: [...created.values()],
    cleanup: cleanups.length === 0 ? undefined : { deleted: sum('deleted'), gone: sum('gone'), failed: sum('failed') },
  };
}

/** A report.json a shard wrote, checked enough to be merged; a file that is not one is named. */
export function parseReport(file: string, text: string): RunResult {
  let report: unknown;
  try {
    report = parseJson(text);
  } catch (error) {
    throw new AppError('usage', `--merge ${file}: not JSON (${(error as Error).message})`);
  }
  const value = report as Omit<Partial<RunResult>, 'verdict'> & { verdict?: string };
  if (value?.tool?.name !== 'conformance' || !Array.isArray(value.scenarios) || !Array.isArray(value.coverage)) {
    const why = value?.verdict === 'not-run' ? 'that run did not happen' : 'not a report.json of conformance';
    throw new AppError('usage', `--merge ${file}: ${why}`);
  }
  return value as unknown as RunResult;
}
