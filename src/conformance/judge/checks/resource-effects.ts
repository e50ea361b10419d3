import type { EffectCheckId, ResourceEffect, StatusExpectation } from '../../cases/scenario.js';
import { show } from '../../../contract/judge/show-value.js';
import { showsLaterPage } from '../../../contract/resources/next-cursor.js';
import { answeredRecord, answerPointer, arrayAt } from '../../../contract/resources/resource-roles.js';
import type { ReceivedResponse } from '../../http/exchange.js';
import { containsSubset, subsetMismatch } from '../subset-mismatch.js';
import type { Check, CheckInput, Problem } from './check.js';
import { idOf, walkProblems, walkUnverified } from './cursor-walk.js';

/**
 * What a resource's writes must have done, seen through a later read of the same case (docs/resources.md, "Effect
 * checks in the runner"). Each check judges only the steps whose expectation names it, so a report names the
 * effect that failed. The generator (generate/kinds/effects.ts) applies the guards: only records the case itself
 * created, no readOnly, writeOnly or volatile fields compared, the list read at its largest page.
 */
const CLAUSES: Readonly<Record<EffectCheckId, string>> = {
  'created-readable': 'a 2xx create makes a record that its get answers and its list shows (docs/resources.md)',
  'update-took-effect': 'after a 2xx PUT or PATCH (RFC 7396), the get shows exactly the change, and the id stays',
  'deleted-is-gone': 'after a 2xx DELETE, the get is 404 or 410 and the list lacks the record (RFC 9110 §9.3.5)',
  'delete-repeatable': 'a second DELETE of the same record is answered without a server error (RFC 9110 §9.2.2, idempotent)',
  'refusal-leaves-no-trace': 'a refused write (4xx) changes nothing a later read shows',
  'parent-scoped': 'a nested record is read only through its own parent (the contract documents the 404)',
  'page-advances': 'a list read at the next offset or page answers other records than the first page (records no page repeats)',
  'cursor-walk':
    'a list read page after page by the cursor each answer carries lists no record twice, ends, and lists every record it holds (docs/reference/case-kinds.md, pagination)',
  'patch-null-removes': 'a member a merge patch sets to null is removed from the record (RFC 7396 §2)',
  'put-replaces':
    'a PUT replaces the whole record: an optional field its body leaves out is gone, or at its default (RFC 9110 §9.3.4)',
  'others-untouched':
    'a 2xx PUT, PATCH or DELETE changes only the record its path names: another record reads back as it was made (RFC 9110 §9.3.4, §9.3.5)',
};

export const RESOURCE_EFFECT_CHECKS: readonly Check[] = (Object.keys(CLAUSES) as EffectCheckId[]).map((id) => ({
  id,
  severity: 'high',
  clause: CLAUSES[id],
  observed: 'skipped',
  check: (input: CheckInput) => {
    const effect = input.expect?.effect;
    return effect?.check === id && followsItsWrite(effect) ? judgeEffect(effect, input) : undefined;
  },
  unverified: (input: CheckInput) => {
    const effect = input.expect?.effect;
    return effect?.check === id && followsItsWrite(effect) ? unverifiedListing(effect, input) : undefined;
  },
}));

function judgeEffect(effect: ResourceEffect, { exchange, operation, run }: CheckInput): Problem | undefined {
  const response = exchange.response;
  // An effect that names no status reads the record a write answers: a refusal (a 428 for a missing If-Match) holds
  // an error, not the record, and the step's status finding says what went wrong.
  if (!response || (effect.status === undefined && effect.statusNot === undefined && !isSuccess(response.status)))
    return undefined;
  const documented: string[] = [];
  const problems: string[] = [];
  if (effect.status) {
    documented.push(`status ${effect.status.join(' or ')}`);
    if (!matches(response.status, effect.status)) problems.push(`status ${response.status}`);
  }
  if (effect.statusNot) {
    documented.push(`a status other than ${effect.statusNot.join(' or ')}`);
    if (matches(response.status, effect.statusNot)) problems.push(`status ${response.status}`);
  }
  if (effect.body !== undefined && problems.length === 0) {
    documented.push(`a record containing ${show(effect.body)}`);
    const role = run.roles.get(operation.operationId);
    const at = ['body', ...answerPointer(role, operation.operationId)].join('.');
    const mismatch = subsetMismatch(answeredRecord(role, operation.operationId, response.json), effect.body, at);
    if (mismatch) problems.push(mismatch);
  }
  if (effect.listed && problems.length === 0) {
    const { field, value, present } = effect.listed;
    documented.push(`a list ${present ? 'holding' : 'without'} the record whose ${field} is ${show(value)}`);
    const items = arrayAt(response.json, effect.listed.pointer);
    if (!items) problems.push(`the list answer holds no array at ${['body', ...effect.listed.pointer].join('.')}`);
    else if (present !== items.some((item) => holds(item, field, value))) {
      if (!present) problems.push(`the list still holds the record whose ${field} is ${show(value)}`);
      else if (!fullPage(items, effect, response))
        problems.push(`none of the ${items.length} listed records has ${field} ${show(value)}`);
    }
  }
  if (effect.absent && problems.length === 0 && written(effect)) {
    const { field, within, was, allowed } = effect.absent;
    const named = within === undefined ? field : `${within}.${field}`;
    documented.push(`a record without ${named}${allowed.length ? ` (or with ${allowed.map(show).join(' or ')})` : ''}`);
    const answered = answeredRecord(run.roles.get(operation.operationId), operation.operationId, response.json);
    const record = within === undefined ? answered : memberOf(answered, within);
    const own = memberOf(record, field);
    // Only the value written before is a merge: another one is a default the server gives an absent field.
    if (own !== undefined && show(own) === show(was) && !allowed.some((value) => show(value) === show(own)))
      problems.push(`the record still has ${named} ${show(own)}`);
  }
  if (effect.nextPage && problems.length === 0) problems.push(...pageProblems(effect.nextPage, response.json, documented));
  if (effect.walkPage?.page && problems.length === 0) problems.push(...walkProblems(effect.walkPage, response.json, documented));
  if (problems.length === 0) return undefined;
  return { title: `${effect.check}: ${problems[0]}`, received: problems.join('; '), documented: documented.join('; ') };
}

// The filter value is the case's own, so both pages hold its records alone: a repeat, a full page answered twice, or
// a second page short of the records left after a full first page (an offset or page number that skips some).
function pageProblems(page: NonNullable<ResourceEffect['nextPage']>, body: unknown, documented: string[]): string[] {
  const due = Math.min(page.size, page.rest);
  documented.push(`a second page without any record of the first, holding the ${due} records that follow it`);
  const first = arrayAt(page.previous, page.pointer);
  const second = arrayAt(body, page.pointer);
  if (!first || !second) return [`the list answer holds no array at ${['body', ...page.pointer].join('.')}`];
  const seen = new Set(first.map((item) => idOf(item, page.field)));
  const repeated = second.map((item) => idOf(item, page.field)).filter((id) => id !== undefined && seen.has(id));
  if (repeated.length === second.length && second.length >= page.size && first.length >= page.size)
    return [`the second page answered the first again (${page.field} ${repeated.join(', ')})`];
  if (repeated.length > 0) return [`the second page repeats the first page's ${page.field} ${repeated.join(', ')}`];
  return first.length >= page.size && second.length < due
    ? [`the second page holds ${second.length} of the ${due} records that follow a full first page: some were skipped`]
    : [];
}

// A full page without the record it should hold may hold it on a later page: not a pass, "not verified".
function unverifiedListing(effect: ResourceEffect, { exchange }: CheckInput): string | undefined {
  if (effect.walkPage?.page && exchange.response) return walkUnverified(effect.walkPage, exchange.response.json);
  if (effect.absent && !written(effect))
    return `the write that was to take ${effect.absent.field} away was refused (${show(effect.absent.writeStatus)}): whether the record loses it is not verified`;
  const listed = effect.listed;
  if (!listed?.present || !exchange.response) return undefined;
  const items = arrayAt(exchange.response.json, listed.pointer);
  if (!items || !fullPage(items, effect, exchange.response) || items.some((item) => holds(item, listed.field, listed.value)))
    return undefined;
  return `the list answered a full page of ${items.length} without the record whose ${listed.field} is ${show(listed.value)}: it may be on a later page`;
}

// Another answer to the write it follows leaves the record to a choice the contract does not make: nothing to judge.
function followsItsWrite(effect: ResourceEffect): boolean {
  const after = effect.onlyAfter;
  return after === undefined || matches(Number(after.status), after.in);
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function written(effect: ResourceEffect): boolean {
  return String(effect.absent?.writeStatus).startsWith('2');
}

// A page is full at the page size the case asked for, or where the answer says more records follow: a server may
// page a list by a size of its own choosing (Django REST framework's PAGE_SIZE), which the contract need not name.
function fullPage(items: readonly unknown[], effect: ResourceEffect, response: ReceivedResponse): boolean {
  const size = effect.listed?.pageSize;
  if (size !== undefined && items.length >= size) return true;
  return showsLaterPage(response.json, effect.listed?.pointer ?? [], response.headers.link);
}

function holds(item: unknown, field: string, value: unknown): boolean {
  if (item === null || typeof item !== 'object') return false;
  const own = (item as Record<string, unknown>)[field];
  return containsSubset(own, value) || (isNumeric(own) && isNumeric(value) && String(own) === String(value));
}

function isNumeric(value: unknown): boolean {
  return typeof value === 'number' || typeof value === 'bigint';
}

function matches(status: number, expected: StatusExpectation): boolean {
  return expected.some((e) => (typeof e === 'number' ? status === e : String(status)[0] === String(e)[0]));
}

function memberOf(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
