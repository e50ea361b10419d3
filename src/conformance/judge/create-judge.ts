import type { CheckInput } from './checks/check.js';
import type { Exchange } from '../http/exchange.js';
import { type JudgeContext, type JudgeItem, type Judged, judgeExchange } from './judge-exchange.js';
import { redactExchange, redactValue } from '../http/redact-exchange.js';
import type { Scenario, Step } from '../cases/scenario.js';

/** An answered step waiting for its verdict: the expectation is filled in from the captures of its case. */
export interface Sent {
  readonly step: Step;
  readonly expect: Step['expect'];
  readonly exchange: Exchange;
}

/**
 * What a library caller is shown of a judged exchange: the check input, redacted as reports are (the exchange,
 * and the expectation filled in from earlier answers), without the run's memory, which holds other answers as
 * they came. The benchmark replays and re-checks them, with a memory of its own.
 */
export type ObservedInput = Omit<CheckInput, 'run'>;

export type OnExchange = (checked: ObservedInput, scenario: Scenario, step: Step) => void;

/**
 * Turns a case's answered steps into verdicts, in the order they are handed in: the run's memory (ids assigned,
 * choices noted) sees the exchanges in that order.
 */
export type Judge = (scenario: Scenario, sent: readonly Sent[]) => Judged[];

export function createJudge(context: JudgeContext, token: string | undefined, onExchange?: OnExchange): Judge {
  return (scenario, sent) =>
    sent.map((one) => {
      const item = judgeItem(scenario, one, token);
      if (!onExchange) return judgeExchange(item, context);
      // What a library caller sees is redacted like a report, and it never sees the run's memory of other answers.
      const onInput = ({ run: _memory, ...seen }: CheckInput) => {
        const shown = {
          ...seen,
          exchange: redactExchange(seen.exchange, context.redact),
          expect: redactValue(seen.expect, context.redact),
        };
        onExchange(shown, scenario, one.step);
      };
      return judgeExchange(item, { ...context, onInput });
    });
}

function judgeItem(scenario: Scenario, { step, expect, exchange }: Sent, token: string | undefined): JudgeItem {
  return {
    caseId: scenario.id,
    file: scenario.file,
    scenario: scenario.name,
    step: step.index,
    operation: step.operation,
    credentials: step.auth === 'default' && token !== undefined ? 'run-key' : 'refusable',
    observe: step.observe,
    setup: step.setup === true,
    respelled: step.respell !== undefined,
    otherMethod: step.method !== undefined,
    raw: step.raw === true,
    fromFile: scenario.source === 'file',
    expect,
    exchange,
  };
}
