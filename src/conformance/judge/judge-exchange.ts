import { findResponse } from '../../contract/find-response.js';
import type { Operation } from '../../contract/operation.js';
import type { Redactor } from '../../shared/create-redactor.js';
import { detachText } from '../../shared/detach-text.js';
import type { Check, CheckInput, CheckSettings, RunMemory } from './checks/check.js';
import { curlLine } from './curl-line.js';
import type { Exchange } from '../http/exchange.js';
import { foldConsequences } from './fold-consequences.js';
import { openChoices } from './open-choices.js';
import { ShownExchange } from '../http/redact-exchange.js';
import { runChecks, unverifiedChecks } from './run-checks.js';
import type { ExchangeSummary, Finding, Observation } from '../run-result.js';
import type { StepExpectation } from '../cases/scenario.js';
import { atLeast, type Severity } from './severity.js';

/** One answered step, as judging needs it: plain values, so a worker thread can be handed it too. */
export interface JudgeItem {
  readonly caseId: string;
  readonly file: string;
  readonly scenario: string;
  readonly step: number;
  readonly operation: Operation;
  readonly credentials: CheckInput['credentials'];
  /** Set when the contract leaves the answer open: the note the observation carries. */
  readonly observe: string | undefined;
  /** A setup step's answer is held to SETUP_CHECKS alone. */
  readonly setup: boolean;
  /** Sent to a spelling of the path the contract does not write: held to RESPELLED_CHECKS alone. */
  readonly respelled?: boolean;
  /** Sent with HTTP's own method (HEAD, OPTIONS) rather than the operation's: held to OTHER_METHOD_CHECKS alone. */
  readonly otherMethod?: boolean;
  /** Read raw, its body not decoded (Step.raw): held to RAW_CHECKS alone. */
  readonly raw?: boolean;
  /** The case comes from a scenario file: its expectations are the file's, not the contract's (Check.fileClause). */
  readonly fromFile?: boolean;
  readonly expect: StepExpectation;
  readonly exchange: Exchange;
}

export interface JudgeContext {
  readonly checks: readonly Check[];
  readonly settings: CheckSettings;
  readonly failOn: Severity;
  readonly run: RunMemory;
  readonly redact: Redactor;
  readonly redactPieces: Redactor;
  /** The curl options that reach the target as the run did (curl-line.ts curlTransport): TLS trust and proxy. */
  readonly curlTransport?: readonly string[];
  /** Sees each check input before its verdict is recorded (run-scenario's onExchange). */
  readonly onInput?: (input: CheckInput) => void;
}

/** What one exchange comes to in a case's result. */
export interface Judged {
  readonly findings: Finding[];
  readonly summary: ExchangeSummary;
  readonly observations: Observation[];
}

export function judgeExchange(item: JudgeItem, context: JudgeContext): Judged {
  const { operation, exchange, step } = item;
  const input: CheckInput = {
    operation,
    exchange,
    credentials: item.credentials,
    expect: item.expect,
    observing: item.observe !== undefined,
    caseId: item.caseId,
    settings: context.settings,
    run: context.run,
  };
  const checks = checksFor(item, context.checks);
  const found = runChecks(checks, input);
  const problems = foldConsequences(found);
  context.onInput?.(input);
  const response = exchange.response;
  const notes = openChoices(input);
  if (item.observe !== undefined) notes.unshift(item.observe);
  for (const note of unverifiedChecks(checks, input, found)) notes.push(note);
  const where = { file: item.file, scenario: item.scenario, step, operationId: operation.operationId };
  // Most exchanges have nothing to report: only those that do are redacted, and their curl line written once.
  const view = problems.length > 0 || notes.length > 0 ? new ShownExchange(exchange, context) : undefined;
  const quote = (text: string) => (view as ShownExchange).quote(text);
  let curl: string | undefined;
  const curlOf = (shownExchange: ShownExchange) => {
    curl ??= curlLine(shownExchange.request, context.curlTransport);
    return curl;
  };
  const findings = problems.map((problem): Finding => {
    const severity = problem.check.severity;
    const shownExchange = view as ShownExchange;
    return {
      checkId: problem.check.id,
      severity,
      clause: (item.fromFile ? problem.check.fileClause : undefined) ?? problem.check.clause,
      title: shown(problem.title, SHOWN_SENTENCE_CHARS, quote),
      received: shown(problem.received, SHOWN_BODY_CHARS, quote),
      documented: shown(problem.documented, SHOWN_BODY_CHARS, quote),
      ...where,
      blocking: [severity, ...problem.consequences.map((c) => c.severity)].some((s) => atLeast(s, context.failOn)),
      request: shownExchange.request,
      response: response && {
        status: response.status,
        headers: shownExchange.headers,
        body: clip(shownExchange.body),
        bodyLength: response.text.length,
      },
      curl: curlOf(shownExchange),
      consequences: problem.consequences.map((c) => ({ ...c, title: shown(c.title, SHOWN_SENTENCE_CHARS, quote) })),
    };
  });
  const summary: ExchangeSummary = {
    step,
    operationId: operation.operationId,
    method: exchange.request.method,
    url: context.redact(exchange.request.url),
    status: response?.status,
    documentedAs: response && findResponse(operation, response.status)?.code,
    elapsedMs: exchange.elapsedMs,
    failed: problems.some((p) => atLeast(p.check.severity, context.failOn)),
    observed: item.observe !== undefined,
  };
  const observations = notes.map((note): Observation => {
    const shownExchange = view as ShownExchange;
    return {
      ...where,
      note: shown(note, SHOWN_SENTENCE_CHARS, quote),
      status: response?.status,
      body: detachText(shownExchange.body.slice(0, 500)),
      curl: curlOf(shownExchange),
    };
  });
  return { findings, summary, observations };
}

// What a setup step's answer is held to: other cases judge the rest of its operation.
const SETUP_CHECKS = new Set(['answered', 'no-server-error']);

// What an answer at another spelling of a contract path is held to: the contract does not describe that path, so
// a 404, a redirect or an HTML page are all the server's choice; serving it without credentials never is.
const RESPELLED_CHECKS = new Set(['answered', 'no-server-error', 'auth-enforced']);

// What HEAD or OPTIONS on an operation's path is held to: the contract documents neither, so only HTTP's own rules
// for the method apply (a 405 or 404 means "not served"); the operation's status, schema and headers do not. Serving
// one without credentials is never the server's choice.
const OTHER_METHOD_CHECKS = new Set(['head-options-answered', 'head-like-get', 'no-content-after-headers', 'auth-enforced']);

// What a raw step of the operation's own method is held to: its body is not decoded, and other cases judge the rest;
// a conditional GET is sent raw so bytes after its 304 are seen, and its status and ETag are judged.
const RAW_CHECKS = new Set(['answered', 'no-server-error', 'no-content-after-headers', 'not-modified']);

type Subsets = Readonly<Record<'setup' | 'respelled' | 'otherMethod' | 'raw', readonly Check[]>>;

// The same list on every such step of a run, so runChecks' sorting of it (and this filter) is done once.
const subsets = new WeakMap<readonly Check[], Subsets>();

/** The checks one exchange is held to: all of them, or the few that apply to how its step was sent. */
export function checksFor(item: Pick<JudgeItem, 'setup' | 'respelled' | 'otherMethod' | 'raw'>, checks: readonly Check[]) {
  const kind = item.setup
    ? 'setup'
    : item.respelled
      ? 'respelled'
      : item.otherMethod
        ? 'otherMethod'
        : item.raw
          ? 'raw'
          : undefined;
  if (kind === undefined) return checks;
  let known = subsets.get(checks);
  if (known === undefined) {
    const only = (ids: ReadonlySet<string>) => checks.filter((c) => ids.has(c.id));
    known = {
      setup: only(SETUP_CHECKS),
      respelled: only(RESPELLED_CHECKS),
      otherMethod: only(OTHER_METHOD_CHECKS),
      raw: only(RAW_CHECKS),
    };
    subsets.set(checks, known);
  }
  return known[kind];
}

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
