import type { StepExpectation } from '../../cases/scenario.js';
import { show } from '../../../contract/judge/show-value.js';
import { arrayAt } from '../../../contract/resources/resource-roles.js';
import { containsSubset, subsetMismatch } from '../subset-mismatch.js';
import type { Check } from './check.js';

export const bodyExpected: Check = {
  id: 'body-expected',
  severity: 'high',
  clause:
    "the step's expected body, which the scenario derives from the contract's meaning (same fields on fetch, filter, limit)",
  fileClause: "the step's expected body, as the scenario file expects it",
  observed: 'applies',
  check: ({ expect, exchange }) => {
    const response = exchange.response;
    if (!expect) return undefined;
    const { body, bodyEach, bodyIncludes, bodyLength, bodyNot } = expect;
    const wantsArray = bodyEach !== undefined || bodyIncludes !== undefined || bodyLength !== undefined;
    if (!response || (body === undefined && bodyNot === undefined && !wantsArray)) return undefined;
    const actual = response.json;
    const listed = expect.listAt ? arrayAt(actual, expect.listAt) : actual;
    const problems: string[] = [];
    if (body !== undefined) {
      const mismatch = subsetMismatch(actual, body);
      if (mismatch) problems.push(mismatch);
    }
    if (bodyNot !== undefined) {
      const same = sameFields(actual, bodyNot);
      if (same.length > 0)
        problems.push(`body.${same[0]}: received the value the request sent, ${show(bodyNot[same[0] as string])}`);
    }
    if (wantsArray) {
      const at = ['body', ...(expect.listAt ?? [])].join('.');
      if (!Array.isArray(listed))
        problems.push(`${at}: expected an array, received ${response.text.slice(0, 100) || '(no body)'}`);
      else {
        if (bodyEach !== undefined) {
          for (let i = 0; i < listed.length; i++) {
            if (containsSubset(listed[i], bodyEach)) continue;
            problems.push(subsetMismatch(listed[i], bodyEach, `${at}[${i}]`) as string);
            break;
          }
        }
        if (bodyIncludes !== undefined && !includes(listed, bodyIncludes)) {
          problems.push(`${at}: none of the ${listed.length} items contains ${show(bodyIncludes.item)}`);
        }
        if (bodyLength !== undefined) {
          if (!lengthFits(listed.length, bodyLength))
            problems.push(`${at}: ${listed.length} items, expected ${expectedLength(bodyLength)}`);
        }
      }
    }
    if (problems.length === 0) return undefined;
    const documented: string[] = [];
    if (body !== undefined) documented.push(`body contains ${show(body)}`);
    if (bodyEach !== undefined) documented.push(`every item contains ${show(bodyEach)}`);
    if (bodyIncludes !== undefined) documented.push(`an item contains ${show(bodyIncludes.item)}${pageNote(bodyIncludes)}`);
    if (bodyLength !== undefined) documented.push(`an array of length ${describeLength(bodyLength)}`);
    if (bodyNot !== undefined) documented.push(`body fields other than ${show(bodyNot)}`);
    return { title: `body is not as expected: ${problems[0]}`, received: problems.join('; '), documented: documented.join('; ') };
  },
  unverified: ({ expect, exchange }) => {
    const rule = expect?.bodyIncludes;
    if (rule?.whenShorterThan === undefined) return undefined;
    const list = expect?.listAt ? arrayAt(exchange.response?.json, expect.listAt) : exchange.response?.json;
    if (!Array.isArray(list) || list.length < rule.whenShorterThan) return undefined;
    if (list.some((element) => containsSubset(element, rule.item))) return undefined;
    return `the list answered a full page of ${list.length} without an item containing ${show(rule.item)}: it may be on a later page`;
  },
};

// The keys of `unwanted` whose value the body holds (a client-sent id the service took as its own): exactly, or
// as the double nearest to it (a service that took 7000000000123456789 through a double answers ...512).
function sameFields(actual: unknown, unwanted: Readonly<Record<string, unknown>>): string[] {
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [];
  return Object.keys(unwanted).filter((key) => {
    if (!Object.hasOwn(actual, key)) return false;
    const value = (actual as Record<string, unknown>)[key];
    return containsSubset(value, unwanted[key]) || sameDouble(value, unwanted[key]);
  });
}

function sameDouble(received: unknown, sent: unknown): boolean {
  const numeric = (v: unknown) => typeof v === 'bigint' || typeof v === 'number';
  return numeric(received) && numeric(sent) && Number(received) === Number(sent);
}

type LengthRule = NonNullable<StepExpectation['bodyLength']>;
type IncludesRule = NonNullable<StepExpectation['bodyIncludes']>;

// A page as long as the limit may continue on a later one, in any order (the contract fixes neither), so it
// proves nothing either way: no finding. A shorter page is the whole list, which must hold the item.
function includes(list: readonly unknown[], rule: IncludesRule): boolean {
  if (rule.whenShorterThan !== undefined && list.length >= rule.whenShorterThan) return true;
  return list.some((element) => containsSubset(element, rule.item));
}

function pageNote(rule: IncludesRule): string {
  return rule.whenShorterThan === undefined ? '' : ` (a list of fewer than ${rule.whenShorterThan} is the whole list)`;
}

function lengthFits(length: number, rule: LengthRule): boolean {
  return (
    (rule.equals === undefined || length === rule.equals) &&
    (rule.min === undefined || length >= rule.min) &&
    (rule.max === undefined || length <= rule.max)
  );
}

// "body: 20 items, expected 70": the count that was wanted, in words.
function expectedLength(rule: LengthRule): string {
  if (rule.equals !== undefined) return String(rule.equals);
  if (rule.min !== undefined && rule.max !== undefined) return `${rule.min} to ${rule.max}`;
  return rule.min !== undefined ? `at least ${rule.min}` : `at most ${rule.max}`;
}

function describeLength(rule: LengthRule): string {
  const parts = [
    rule.equals === undefined ? '' : `= ${rule.equals}`,
    rule.min === undefined ? '' : `>= ${rule.min}`,
    rule.max === undefined ? '' : `<= ${rule.max}`,
  ];
  return parts.filter(Boolean).join(' and ');
}
