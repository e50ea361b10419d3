import type { StepExpectation } from '../scenario.js';
import { subsetMismatch } from '../subset-mismatch.js';
import type { Check } from './check.js';

export const bodyExpected: Check = {
  id: 'body-expected',
  severity: 'high',
  clause:
    "the step's expected body, which the scenario derives from the contract's meaning (same fields on fetch, filter, limit)",
  onObservations: true,
  check: ({ step, exchange }) => {
    const response = exchange.response;
    const { body, bodyEach, bodyLength } = step.expect;
    if (!response || (body === undefined && bodyEach === undefined && bodyLength === undefined)) return undefined;
    const actual = response.json;
    const problems: string[] = [];
    if (body !== undefined) {
      const mismatch = subsetMismatch(actual, body);
      if (mismatch) problems.push(mismatch);
    }
    if (bodyEach !== undefined || bodyLength !== undefined) {
      if (!Array.isArray(actual))
        problems.push(`body: expected an array, received ${response.text.slice(0, 100) || '(no body)'}`);
      else {
        if (bodyEach !== undefined) {
          for (let i = 0; i < actual.length; i++) {
            const mismatch = subsetMismatch(actual[i], bodyEach, `body[${i}]`);
            if (mismatch) {
              problems.push(mismatch);
              break;
            }
          }
        }
        if (bodyLength !== undefined) {
          if (!lengthFits(actual.length, bodyLength)) problems.push(`body: ${actual.length} items`);
        }
      }
    }
    if (problems.length === 0) return undefined;
    const documented: string[] = [];
    if (body !== undefined) documented.push(`body contains ${show(body)}`);
    if (bodyEach !== undefined) documented.push(`every item contains ${show(bodyEach)}`);
    if (bodyLength !== undefined) documented.push(`an array of length ${describeLength(bodyLength)}`);
    return { title: `body is not as expected: ${problems[0]}`, received: problems.join('; '), documented: documented.join('; ') };
  },
};

type LengthRule = NonNullable<StepExpectation['bodyLength']>;

function lengthFits(length: number, rule: LengthRule): boolean {
  return (
    (rule.equals === undefined || length === rule.equals) &&
    (rule.min === undefined || length >= rule.min) &&
    (rule.max === undefined || length <= rule.max)
  );
}

function describeLength(rule: LengthRule): string {
  const parts = [
    rule.equals === undefined ? '' : `= ${rule.equals}`,
    rule.min === undefined ? '' : `>= ${rule.min}`,
    rule.max === undefined ? '' : `<= ${rule.max}`,
  ];
  return parts.filter(Boolean).join(' and ');
}

function show(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? String(v) : v));
}
