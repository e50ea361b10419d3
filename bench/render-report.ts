import { type BenchSettings, resourceSettings } from './bench-settings.js';
import { type Measurements, type TargetCheck, throughputRatio } from './evaluate-targets.js';
import type { RunnerRow } from './measure-runner.js';
import type { ThroughputRow } from './measure-throughput.js';
import { libraryScenarios } from './library-scenarios.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { LIBRARY_BASE_PATH, TARGETS, type TargetId } from './targets.js';

/** Everything one run measured, and where: the content of reports/bench.json. */
export interface BenchReport extends Measurements {
  readonly date: string;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly memoryGb: number; readonly os: string };
  readonly node: string;
  readonly tools: Readonly<Record<string, string>>;
  readonly settings: BenchSettings;
  readonly targets: readonly TargetCheck[];
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : `${int(bytes / 1024 / 1024)} MB`);
const medianOf = (settings: BenchSettings) => (settings.rounds === 1 ? 'one round' : `median of ${settings.rounds} rounds`);

/** The throughput table: every operation against every server, with ours over the ceiling and over Prism. */
export function renderThroughput(throughput: readonly ThroughputRow[], settings: BenchSettings): string[] {
  return [
    `## Throughput: ${loadOf(settings)}`,
    '',
    ...throughputTable(throughput, SCENARIOS),
    `Requests: ${requestsOf(SCENARIOS)}, with \`Authorization: Bearer\` (the mock under /v1; Prism and the ceiling at the root).`,
    '',
    `Ours / ceiling in each round (the targets take turns within a round): ${roundsOf(throughput, SCENARIOS)}.`,
    '',
  ];
}

/** The second resource's table (bench/library-scenarios.ts): the mock on the library contract against the ceiling. */
export function renderResourceThroughput(rows: readonly ThroughputRow[], settings: BenchSettings): string[] {
  const scenarios = libraryScenarios(settings.seededAuthors);
  const load = loadOf(resourceSettings(settings));
  return [
    `## Throughput of a second resource, on the mock's generic handlers and store: ${load}`,
    '',
    `The mock serves \`test/contracts/library-api/openapi.yaml\` (\`--contract\`), its authors seeded from a fixtures file of ${int(settings.seededAuthors)} authors (\`--fixtures\`, written by \`bench/library-mock.ts\`) that \`POST /__admin/reset\` restores after every run that writes; each request of deleteAuthor deletes the next seeded author (autocannon's \`setupRequest\`, for the ceiling too), and getBook reads a book added under an author before its run. The ceiling answers one record of the same shape with the mock's status (201, 200, 204 without a body).`,
    '',
    ...throughputTable(rows, scenarios),
    `Requests: ${requestsOf(scenarios)}, with \`Authorization: Bearer\` (the mock under ${LIBRARY_BASE_PATH}, the base path of the contract's servers; the ceiling at the root).`,
    '',
    `Ours / ceiling in each round: ${roundsOf(rows, scenarios)}.`,
    '',
  ];
}

const loadOf = (settings: BenchSettings) =>
  `${settings.connections} connections, ${settings.durationSeconds} s ${settings.warmupSeconds > 0 ? `after a ${settings.warmupSeconds} s warm-up` : 'without a warm-up'}, ${medianOf(settings)}`;

function throughputTable(throughput: readonly ThroughputRow[], scenarios: readonly Scenario[]): string[] {
  const has = (target: TargetId) => throughput.some((r) => r.target === target);
  const ratio = (row: ThroughputRow, other: TargetId) =>
    has(other) ? `${throughputRatio(throughput, row.scenario, other).toFixed(2)}×` : '–';
  return [
    '| operation | server | req/s | p50 ms | p99 ms | errors | non-2xx | ours / ceiling | ours / Prism |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
    ...scenarios.flatMap((scenario) =>
      throughput
        .filter((row) => row.scenario === scenario.id)
        .map((row) => {
          const ratios = row.target === 'ours' ? `${ratio(row, 'ceiling')} | ${ratio(row, 'prism')}` : ' | ';
          const r = row.result;
          return `| ${row.scenario} | ${TARGETS[row.target].title} | ${int(r.requestsPerSecond)} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${r.non2xx} | ${ratios} |`;
        }),
    ),
    '',
  ];
}

const requestsOf = (scenarios: readonly Scenario[]) => scenarios.map((s) => `${s.id} = \`${s.method} ${s.path}\``).join(', ');

const roundsOf = (throughput: readonly ThroughputRow[], scenarios: readonly Scenario[]) =>
  scenarios.map((s) => `${s.id} ${roundRatios(throughput, s.id).join(', ')}`).join('; ');

function roundRatios(throughput: readonly ThroughputRow[], scenario: string): string[] {
  const rounds = (target: string) => throughput.find((r) => r.scenario === scenario && r.target === target)?.rounds ?? [];
  const ceiling = rounds('ceiling');
  return rounds('ours').map((ours, i) => (ours.requestsPerSecond / (ceiling[i]?.requestsPerSecond ?? Number.NaN)).toFixed(2));
}

/** The targets as a Markdown table. */
export function renderTargets(targets: readonly TargetCheck[]): string[] {
  return [
    '| target | measured | required | met |',
    '|---|--:|--:|:-:|',
    ...targets.map(
      (t) => `| ${t.target} | ${t.measured} | ${t.required} | ${t.met === undefined ? '–' : t.met ? 'yes' : '**no**'} |`,
    ),
  ];
}

export function renderReport(report: BenchReport): string {
  const { settings } = report;
  const lines = [
    `# Benchmark (${settings.mode})`,
    '',
    `${report.date} · ${report.machine.cpu}, ${report.machine.cores} cores, ${report.machine.memoryGb} GB · ${report.machine.os} · Node ${report.node} · ${Object.entries(
      report.tools,
    )
      .map(([name, version]) => `${name} ${version}`)
      .join(' · ')}`,
    '',
    ...renderThroughput(report.throughput, settings),
    ...renderResourceThroughput(report.resourceThroughput, settings),
    `## Stored pets: one request at a time (${settings.probeRequests} each), and the list at ${settings.connections} connections for ${settings.scaleDurationSeconds} s, ${medianOf(settings)}`,
    '',
    '| pets | listPets?status&limit=100 p50 / p99 µs | getPet p50 / p99 µs | listPets req/s | RSS | answering after (seeded side by side) |',
    '|--:|--:|--:|--:|--:|--:|',
    ...report.scale.map(
      (r) =>
        `| ${int(r.pets)} | ${int(r.list.p50Us)} / ${int(r.list.p99Us)} | ${int(r.get.p50Us)} / ${int(r.get.p99Us)} | ${int(r.listRequestsPerSecond)} | ${mb(r.rssBytes)} | ${int(r.readyMs)} ms |`,
    ),
    '',
    `## Start-up: process start to the first answered request, ${medianOf(settings)}`,
    '',
    '| server | ms | every round |',
    '|---|--:|---|',
    ...report.startup.map((r) => `| ${TARGETS[r.target].title} | ${int(r.medianMs)} | ${r.roundsMs.map(int).join(', ')} |`),
    '',
    ...renderRunner(report.runner),
    '## Conformance runner against a target whose every list is 10 MiB',
    '',
    'A `node:http` target (`bench/large-answers-target.ts`) answers every `GET /v1/pets` with 10 MiB of pets or of empty objects; `conformance --target <it>` runs as a new process, its peak RSS read from `/proc` (VmHWM).',
    '',
    '| list of | options | peak RSS | wall | exit |',
    '|---|---|--:|--:|--:|',
    ...report.runnerMemory.map(
      (r) =>
        `| ${r.shape} | \`-c ${r.concurrency} ${r.options.join(' ')}\` | ${int(r.peakRssMb)} MB | ${r.wallSeconds.toFixed(1)} s | ${r.exitCode} |`,
    ),
    '',
    '## Targets',
    '',
    ...renderTargets(report.targets),
    '',
  ];
  return lines.join('\n');
}

/** The runner's section: the default run against the mock beside a plain replay of its requests. */
export function renderRunner(runner: RunnerRow): string[] {
  return [
    `## Conformance runner: the default run (scenario files and generated cases, ${runner.requests} requests) against the mock, alternating with a plain undici replay of the same requests, in a process of its own`,
    '',
    `${runner.schedule.warmUps} warm-up runs of each, then ${runner.schedule.rounds} rounds; a round is the mean of ${runner.schedule.runsPerRound} runs of each, taking turns, the mock's store reset before every run.`,
    '',
    '| | median ms | every round |',
    '|---|--:|---|',
    `| conformance (runConformance, no reporters) | ${runner.runnerMs.toFixed(1)} | ${runner.runnerRoundsMs.map((n) => n.toFixed(1)).join(', ')} |`,
    `| plain undici replay | ${runner.replayMs.toFixed(1)} | ${runner.replayRoundsMs.map((n) => n.toFixed(1)).join(', ')} |`,
    '',
    `Each round runs the two back to back; the median over rounds of runner / replay is ${(runner.overhead + 1).toFixed(2)}× (${Math.round(runner.overhead * 100)}% over).`,
    '',
    `Of the runner's time, ${runner.fixedMs.toFixed(1)} ms (median) is the fixed cost of a run: before its first request (scenario files, generated and selected cases, connections) and after its last (closing, the summary). Over the replay, the rest comes to ${runner.overheadUsPerRequest.toFixed(1)} µs per request, ${(runner.overheadShare * 100).toFixed(1)}% of the replay's own time per request (medians of paired rounds). The default run as a new process (\`conformance --target <mock>\`, every reporter): ${(runner.cliWallMs / 1000).toFixed(2)} s.`,
    '',
    `All built-in checks on one response: ${runner.checksUsPerResponse.toFixed(1)} µs (mean over the recorded responses).`,
    '',
    `The runner's own work alone (every case of the run built, judged and recorded over answers recorded from the mock, no network, the mock idle): ${runner.engineUsPerRequest.toFixed(1)} µs per request (median of runs).`,
    '',
    `CPU time of a run (median of the counted runs): this process ${runner.cpu.runner.client.toFixed(1)} ms running the runner, ${runner.cpu.replay.client.toFixed(1)} ms replaying; the mock ${shownMs(runner.cpu.runner.mock)} and ${shownMs(runner.cpu.replay.mock)} serving them.`,
    '',
  ];
}

function shownMs(ms: number | undefined): string {
  return ms === undefined ? 'not measured (no /proc)' : `${ms.toFixed(1)} ms`;
}
