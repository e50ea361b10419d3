import { isAppError } from '../contract/app-error.js';
import { findResponse } from '../contract/find-response.js';
import { buildRequest } from './build-request.js';
import type { Check, CheckInput, CheckSettings, RunMemory } from './checks/check.js';
import type { HttpClient } from './create-http-client.js';
import { curlLine } from './curl-line.js';
import type { Exchange } from './exchange.js';
import { redactExchange, redactValue, ShownExchange } from './redact-exchange.js';
import type { Redactor } from '../shared/create-redactor.js';
import { foldConsequences } from './fold-consequences.js';
import { detachText } from '../shared/detach-text.js';
import { interpolate } from './interpolate.js';
import { openChoices } from './open-choices.js';
import { capturedAnswer } from './received-response.js';
import { captureReads } from './capture-reads.js';
import { runChecks } from './run-checks.js';
import { runPool } from './run-pool.js';
import type { ExchangeSummary, Finding, Observation, ScenarioResult } from './run-result.js';
import type { Scenario, Step } from './scenario.js';
import { atLeast, type Severity } from './severity.js';

export interface ScenarioContext {
  readonly client: HttpClient;
  readonly target: string;
  readonly token: string | undefined;
  readonly checks: readonly Check[];
  readonly settings: CheckSettings;
  readonly failOn: Severity;
  readonly runId: string;
  /** `{{env.NAME}}` in scenario files. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly run: RunMemory;
  /** Sees every exchange with what its checks saw, redacted, without the run's memory (see ObservedInput). */
  readonly onExchange?: ((checked: ObservedInput, scenario: Scenario, step: Step) => void) | undefined;
}

/**
 * What onExchange is shown of a judged exchange: the check input, redacted as reports are (the exchange, and the
 * expectation filled in from earlier answers), without the run's memory, which holds other answers as they came.
 * The benchmark replays and re-checks them, with a memory of its own.
 */
export type ObservedInput = Omit<CheckInput, 'run'>;

interface Sent {
  readonly step: Step;
  readonly expect: Step['expect'];
  readonly exchange: Exchange;
}

/** Steps run in order; a step whose captures are missing stops the scenario, since every later step may need them. */
export async function runScenario(scenario: Scenario, context: ScenarioContext): Promise<ScenarioResult> {
  const started = performance.now();
  const scope: Record<string, unknown> = { run: { id: context.runId }, env: context.env ?? {} };
  const exchanges: ExchangeSummary[] = [];
  const findings: Finding[] = [];
  const observations: Observation[] = [];
  const where = { file: scenario.file, scenario: scenario.name };
  const client = scenario.connection === 'dedicated' ? context.client.dedicated() : context.client;

  const send = async (step: Step, index: number): Promise<Sent> => {
    const repeatScope = step.repeat ? { ...scope, repeat: { index } } : scope;
    // Expectations may name captures too: `id: '{{create.body.id}}'` is compared as the exact captured value.
    const expect = step.templated ? (interpolate(step.expect, repeatScope) as Step['expect']) : step.expect;
    const exchange = await client.send(buildRequest(step, repeatScope, context.target, context.token));
    return { step, expect, exchange };
  };

  const { redact } = context.client;
  const judge = ({ step, expect, exchange }: Sent): void => {
    const input: CheckInput = {
      operation: step.operation,
      exchange,
      credentials: step.auth === 'default' && context.token !== undefined ? 'run-key' : 'refusable',
      expect,
      observing: step.observe !== undefined,
      caseId: scenario.id,
      settings: context.settings,
      run: context.run,
    };
    const checks = step.setup ? context.checks.filter((c) => SETUP_CHECKS.has(c.id)) : context.checks;
    const problems = foldConsequences(runChecks(checks, input));
    if (context.onExchange) {
      // What a library caller sees is redacted like a report, and it never sees the run's memory of other answers.
      const { run: _memory, ...seen } = input;
      context.onExchange({ ...seen, exchange: redactExchange(exchange, redact), expect: redactValue(expect, redact) }, scenario, step);
    }
    const response = exchange.response;
    const notes = step.observe === undefined ? openChoices(input) : [step.observe, ...openChoices(input)];
    // Most exchanges have nothing to report: only those that do are redacted.
    const view = problems.length > 0 || notes.length > 0 ? new ShownExchange(exchange, context.client) : undefined;
    const quote = (text: string) => (view as ShownExchange).quote(text);
    for (const problem of problems) {
      const severity = problem.check.severity;
      const shownExchange = view as ShownExchange;
      findings.push({
        checkId: problem.check.id,
        severity,
        clause: problem.check.clause,
        title: shown(problem.title, SHOWN_SENTENCE_CHARS, quote),
        received: shown(problem.received, SHOWN_BODY_CHARS, quote),
        documented: shown(problem.documented, SHOWN_BODY_CHARS, quote),
        ...where,
        step: step.index,
        operationId: step.operation.operationId,
        blocking: [severity, ...problem.consequences.map((c) => c.severity)].some((s) => atLeast(s, context.failOn)),
        request: shownExchange.request,
        response: response && {
          status: response.status,
          headers: shownExchange.headers,
          body: clip(shownExchange.body),
          bodyLength: response.text.length,
        },
        curl: curlLine(shownExchange.request),
        consequences: problem.consequences.map((c) => ({ ...c, title: shown(c.title, SHOWN_SENTENCE_CHARS, quote) })),
      });
    }
    exchanges.push({
      step: step.index,
      operationId: step.operation.operationId,
      method: exchange.request.method,
      url: redact(exchange.request.url),
      status: response?.status,
      documentedAs: response && findResponse(step.operation, response.status)?.code,
      elapsedMs: exchange.elapsedMs,
      failed: problems.some((p) => atLeast(p.check.severity, context.failOn)),
      observed: step.observe !== undefined,
    });
    for (const note of notes) {
      const shownExchange = view as ShownExchange;
      observations.push({
        ...where,
        step: step.index,
        operationId: step.operation.operationId,
        note: shown(note, SHOWN_SENTENCE_CHARS, quote),
        status: response?.status,
        body: detachText(shownExchange.body.slice(0, 500)),
        curl: curlLine(shownExchange.request),
      });
    }
  };

  // Judging waits until the case has sent its last step, so the next request goes out as soon as an answer is in
  // (only a capture is taken at once): on a fast target the checks between two steps were most of a case's time.
  // A case holds at most HELD_CHARS of answers unjudged; a larger answer is judged, and let go, at once.
  const held: Sent[] = [];
  let heldChars = 0;
  const judgeHeld = () => {
    for (const sent of held.splice(0)) judge(sent);
    heldChars = 0;
  };
  const notSentAt = (step: Step, error: unknown) => {
    judgeHeld();
    findings.push(notSent(step, error, where, context.failOn, redact));
  };

  // A frame of its own, ended before the next step is sent: an async function keeps its locals across an await,
  // and this loop's would hold the last answer (a 10 MiB list and its tree) while the next request waits.
  const sendAndHold = async (step: Step, index: number): Promise<boolean> => {
    let sent: Sent;
    try {
      sent = await send(step, index);
    } catch (error) {
      notSentAt(step, error);
      return false;
    }
    const { response } = sent.exchange;
    if (step.capture && response) scope[step.capture] = capturedAnswer(response, captureReads(scenario).get(step.capture));
    held.push(sent);
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
      if (step.parallel === undefined) for (let i = 0; i < times && answered; i++) await next(i);
      else await runPool(Array.from({ length: times }, (_, i) => i), step.parallel, next);
      if (!answered) break;
    }
    judgeHeld();
  } finally {
    if (client !== context.client) await client.close();
  }
  return {
    id: scenario.id,
    source: scenario.source,
    kind: scenario.kind,
    file: scenario.file,
    name: scenario.name,
    line: scenario.line,
    description: scenario.description,
    tags: scenario.tags,
    outcome: findings.some((f) => f.blocking) ? 'failed' : 'passed',
    skipReason: undefined,
    durationMs: performance.now() - started,
    exchanges,
    findings,
    observations,
  };
}

function repetitions(step: Step, scope: Readonly<Record<string, unknown>>): number {
  if (!step.repeat) return 1;
  if (step.repeat.less === undefined) return step.repeat.count;
  const less = interpolate(step.repeat.less, scope);
  const amount = Array.isArray(less) ? less.length : Number(less);
  return Math.max(0, step.repeat.count - (Number.isFinite(amount) ? amount : 0));
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

// What a setup step's answer is held to: other cases judge the rest of its operation.
const SETUP_CHECKS = new Set(['answered', 'no-server-error']);

// A report embeds the body of every finding: a 50 MB answer must not be copied into each of them.
const SHOWN_BODY_CHARS = 4096;

function clip(text: string): string {
  return text.length <= SHOWN_BODY_CHARS ? text : detachText(text.slice(0, SHOWN_BODY_CHARS));
}

// A check's sentence may quote the answer (`received [{"id":1,…` of a whole list): every console line, JUnit
// message and report would repeat it.
const SHOWN_SENTENCE_CHARS = 1000;

/**
 * The text as reports show it: at most `max` characters, saying how long it was, redacted; never a view of a
 * larger text (a problem's text may be built from a slice of the answer, which would keep all of it alive).
 */
function shown(text: string, max: number, redact: Redactor): string {
  return detachText(redact(text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`));
}
