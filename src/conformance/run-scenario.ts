import { isAppError } from '../contract/app-error.js';
import type { Redactor } from '../shared/create-redactor.js';
import { buildRequest } from './cases/build-request.js';
import { captureReads } from './cases/capture-reads.js';
import type { HttpClient } from './http/create-http-client.js';
import type { RunBounds } from './create-run-bounds.js';
import type { Judge, Sent } from './judge/create-judge.js';
import { foldLaterSteps } from './judge/fold-later-steps.js';
import { JUDGE_AT_ONCE, type JudgingQueue } from './judge/judging-queue.js';
import { interpolate } from './cases/interpolate.js';
import { capturedAnswer } from './http/received-response.js';
import type { ExchangeSummary, Finding, Observation, ScenarioResult } from './run-result.js';
import { runPool } from './run-pool.js';
import type { Scenario, Step } from './cases/scenario.js';
import { walkPages } from './walk-pages.js';
import { atLeast, type Severity } from './judge/severity.js';

export interface ScenarioContext {
  readonly client: HttpClient;
  readonly target: string;
  readonly token: string | undefined;
  readonly judge: Judge;
  readonly failOn: Severity;
  readonly runId: string;
  /** `{{env.NAME}}` in scenario files. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Asked before each step is sent, told of each exchange: the run's deadline and given-up operations. */
  readonly bounds?: RunBounds;
  /** Where the case's answers are judged: at once when not given. */
  readonly judging?: JudgingQueue;
}

/** Steps run in order; a step whose captures are missing stops the scenario, since every later step may need them. */
export async function runScenario(scenario: Scenario, context: ScenarioContext): Promise<ScenarioResult> {
  return (await sendScenario(scenario, context)).judged;
}

/**
 * runScenario in two parts: it resolves once the case has sent its last request, and `judged` once its answers are
 * judged (context.judging decides when), so the next case need not wait for the verdicts of this one.
 */
export async function sendScenario(
  scenario: Scenario,
  context: ScenarioContext,
): Promise<{ readonly judged: Promise<ScenarioResult> }> {
  const judging = context.judging ?? JUDGE_AT_ONCE;
  const started = performance.now();
  const scope: Record<string, unknown> = { run: { id: context.runId }, env: context.env ?? {} };
  const findings: Finding[] = [];
  const exchanges: ExchangeSummary[] = [];
  const observations: Observation[] = [];
  const where = { file: scenario.file, scenario: scenario.name };
  const client = scenario.connection === 'dedicated' ? context.client.dedicated() : context.client;
  const { redact } = context.client;

  const send = async (step: Step, index: number): Promise<Sent> => {
    // A repetition's own value is filled in too: a fresh body refers to records the case captured ({{bound0.body.id}}).
    const each = step.repeat?.each === undefined ? undefined : interpolate(step.repeat.each[index], scope);
    const repeatScope = step.repeat ? { ...scope, repeat: { index, each } } : scope;
    // Expectations may name captures too: `id: '{{create.body.id}}'` is compared as the exact captured value.
    const expect = step.templated ? (interpolate(step.expect, repeatScope) as Step['expect']) : step.expect;
    const exchange = await client.send(buildRequest(step, repeatScope, context.target, context.token));
    return { step, expect, exchange };
  };

  // Judging waits until the case has sent its last step, so the next request goes out as soon as an answer is in
  // (only a capture is taken at once): on a fast target the checks between two steps were most of a case's time.
  // Then the answers go to context.judging, with other cases' (judging-queue.ts). A case holds at most HELD_CHARS
  // of answers before it hands them on.
  const held: Sent[] = [];
  let heldChars = 0;
  const judgeHeld = () => {
    if (held.length === 0) return;
    const sent = held.splice(0);
    judging.add(
      () => {
        for (const judged of context.judge(scenario, sent)) {
          findings.push(...judged.findings);
          exchanges.push(judged.summary);
          observations.push(...judged.observations);
        }
      },
      sent.length,
      heldChars,
    );
    heldChars = 0;
  };
  const notSentAt = (step: Step, error: unknown) => {
    judgeHeld();
    const finding = notSent(step, error, where, context.failOn, redact);
    judging.add(() => findings.push(finding), 0, 0);
  };
  // A bound of the run (its deadline, an operation given up after timeouts) stops the case: what it sent is judged,
  // the rest is reported as not run, never as a finding. Set at once, so steps sent side by side stop it once.
  let notRun: string | undefined;
  let sentAny = false;
  const stoppedBy = (step: Step, reason: string) => {
    notRun = sentAny ? `${reason} (stopped before step ${step.index})` : reason;
    return false;
  };

  // A frame of its own, ended before the next step is sent: an async function keeps its locals across an await,
  // and this loop's would hold the last answer (a 10 MiB list and its tree) while the next request waits.
  const sendAndHold = async (step: Step, index: number, told?: (sent: Sent) => Sent): Promise<boolean> => {
    if (notRun !== undefined) return false;
    const refused = context.bounds?.refuse([step.operation.operationId]);
    if (refused !== undefined) return stoppedBy(step, refused);
    let sent: Sent;
    try {
      sent = await send(step, index);
    } catch (error) {
      if (isAppError(error) && error.code === 'deadline_reached') {
        context.bounds?.deadlineMet(error.message);
        return stoppedBy(step, error.message);
      }
      if (isAppError(error) && error.code === 'capture_missing' && step.unlessMissing !== undefined) {
        judgeHeld();
        notRun = step.unlessMissing;
        return false;
      }
      notSentAt(step, error);
      return false;
    }
    sentAny = true;
    context.bounds?.note(step.operation.operationId, sent.exchange);
    const { response } = sent.exchange;
    if (step.capture && response)
      scope[step.capture] = capturedAnswer(response, captureReads(scenario).get(step.capture), step.locationId);
    held.push(told ? told(sent) : sent);
    heldChars += response?.text.length ?? 0;
    if (heldChars > HELD_CHARS) judgeHeld();
    return !sent.exchange.error;
  };

  try {
    for (const step of scenario.steps) {
      let times: number;
      try {
        times = repetitions(step, scope);
      } catch (error) {
        notSentAt(step, error);
        break;
      }
      // Without an answer, later steps would only repeat the same finding: nothing more is sent once one is missing.
      let answered = true;
      const next = async (index: number) => {
        if (answered && !(await sendAndHold(step, index))) answered = false;
      };
      if (step.walk !== undefined) answered = await walkPages(step, step.walk, scope, sendAndHold);
      else if (step.parallel === undefined) for (let i = 0; i < times && answered; i++) await next(i);
      else
        await runPool(
          Array.from({ length: times }, (_, i) => i),
          step.parallel,
          next,
        );
      if (!answered) break;
    }
    judgeHeld();
  } finally {
    if (client !== context.client) await client.close();
  }
  const durationMs = performance.now() - started;
  const result = (): ScenarioResult => ({
    id: scenario.id,
    source: scenario.source,
    kind: scenario.kind,
    file: scenario.file,
    name: scenario.name,
    line: scenario.line,
    description: scenario.description,
    tags: scenario.tags,
    outcome: findings.some((f) => f.blocking) ? 'failed' : notRun !== undefined ? 'skipped' : 'passed',
    skipReason: notRun,
    durationMs,
    exchanges,
    findings: foldLaterSteps(findings),
    observations,
  });
  const judged = new Promise<ScenarioResult>((resolve, reject) =>
    judging.add(
      () => {
        try {
          resolve(result());
        } catch (error) {
          reject(error);
        }
      },
      0,
      0,
    ),
  );
  return { judged };
}

function repetitions(step: Step, scope: Readonly<Record<string, unknown>>): number {
  if (!step.repeat) return 1;
  if (step.repeat.less === undefined) return step.repeat.count;
  const less = interpolate(step.repeat.less, scope);
  const amount = Array.isArray(less) ? less.length : Number(less);
  // A count the target sent: only 0 to `count` of it is taken. A negative one (a list answered as -1000000000, or
  // as {"length": -1000000000}) planned a billion requests and ran the runner out of memory.
  const had = Number.isFinite(amount) ? Math.min(Math.max(amount, 0), step.repeat.count) : 0;
  return step.repeat.count - had;
}

function notSent(
  step: Step,
  error: unknown,
  where: { file: string; scenario: string },
  failOn: Severity,
  redact: Redactor,
): Finding {
  if (!isAppError(error)) throw error;
  // The message may quote a captured value: target text.
  const message = redact(error.message);
  return {
    checkId: 'step-not-sent',
    severity: 'high',
    clause: 'a step that cannot be sent proves nothing: an earlier answer lacked what it needs, or a value is not sendable',
    title: `step ${step.index} was not sent: ${message}`,
    received: message,
    documented: error.code === 'request_invalid' ? 'a request HTTP can carry' : 'the captured value, from an earlier answer',
    ...where,
    step: step.index,
    operationId: step.operation.operationId,
    blocking: atLeast('high', failOn),
    request: { method: step.operation.method, url: step.operation.path, headers: {}, body: undefined },
    response: undefined,
    curl: '',
    consequences: [],
  };
}

// 256 KiB: the answers of a hundred creates, or of a few pages of a list, wait for their case's end; at -c 16 the
// run holds 4 MiB of them at most.
const HELD_CHARS = 256 * 1024;
