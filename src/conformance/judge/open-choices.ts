import { findResponse } from '../../contract/find-response.js';
import type { JsonSchema, Operation } from '../../contract/operation.js';
import { objectShape } from '../../contract/resources/object-shape.js';
import { listedIn } from '../../contract/resources/representation.js';
import { answeredRecord, assignsIds } from '../../contract/resources/resource-roles.js';
import type { CheckInput, RunMemory } from './checks/check.js';

/**
 * What a target chose where the contract is silent, seen in an answer: fields the schema does not list (it allows
 * them), and how the service numbers new ids. Each is noted once per run and operation, never failed.
 */
export function openChoices(input: CheckInput): string[] {
  const created = createdStatus(input);
  const notes = openFields(input);
  return created === undefined ? notes : [created, ...notes];
}

/**
 * RFC 9110 §9.3.4: a PUT that makes a record answers 201. A PUT at an id the run drew (rule 11) that documents 201
 * and answers another success is noted, once a run and operation, not failed: a store of blind writes (many object
 * stores answer every PUT 200) cannot tell a create from a replace, and the record is judged by the reads after it.
 */
function createdStatus({ operation, exchange, expect, run }: CheckInput): string | undefined {
  const status = exchange.response?.status ?? 0;
  const key = `put-created ${operation.operationId}`;
  if (!expect?.creates || status === 201 || status < 200 || status > 299 || run.noted.has(key)) return undefined;
  if (!operation.responses.some((r) => r.code === '201')) return undefined;
  run.noted.add(key);
  return `${operation.operationId} made a record at an id of the run's own and answered ${status}, where 201 is documented for a PUT that creates (RFC 9110 §9.3.4)`;
}

function openFields({ operation, exchange, run }: CheckInput): string[] {
  const response = exchange.response;
  if (!response) return [];
  // Each choice is noted once a run: once both are, an answer is not looked at again (this runs on every one).
  const known = keysOf(operation, run);
  const { idsKey, idField } = known;
  const answer = answerOf(known, operation, response.status);
  const assigns = idField !== undefined && response.status >= 200 && response.status < 300;
  // An answer whose schema lists no fields can show no extra one: its body need not even be parsed.
  const wantsExtra = answer.declared !== undefined && !run.noted.has(answer.extraKey);
  const wantsIds = assigns && !run.noted.has(idsKey);
  if ((!wantsExtra && !wantsIds) || response.json === undefined) return [];
  const notes: string[] = [];
  const once = (key: string, note: string) => {
    run.noted.add(key);
    notes.push(note);
  };
  const body = Array.isArray(response.json) && answer.listed ? response.json[0] : response.json;
  const extra = wantsExtra ? extraFields(answer.declared as object, body) : [];
  if (extra.length > 0) {
    once(
      answer.extraKey,
      `${operation.operationId} ${response.status} answers fields the contract does not list: ${extra.join(', ')}`,
    );
  }
  const record = wantsIds ? answeredRecord(run.roles.get(operation.operationId), operation.operationId, body) : undefined;
  if (wantsIds && record !== null && typeof record === 'object') {
    const id = (record as Record<string, unknown>)[idField as string];
    // Cases run side by side, and each is judged when it ends: the first id judged need not be the first made.
    if (id !== undefined)
      once(
        idsKey,
        `an id ${operation.operationId} assigned in this run (the first judged, not necessarily the first made): ${String(id)}`,
      );
  }
  return notes;
}

interface Keys {
  readonly idsKey: string;
  /** The id field of the records the operation creates, when the service assigns it. */
  readonly idField: string | undefined;
  readonly answers: Map<number, Answer>;
}

/** What one status of an operation answers, as read here: its key in the run's notes and the schema of an item. */
interface Answer {
  readonly extraKey: string;
  /**
   * The fields the schema of an answer's item lists (a listed resource's, else the whole answer's), allOf members
   * too; undefined when it lists none, and no field can be extra.
   */
  readonly declared: object | undefined;
  /** The answer lists resources: its first element is the item looked at. */
  readonly listed: boolean;
}

// An operation's keys in the run's notes and its answers' schemas, read once: openChoices runs on every answer of a
// run, and a target that answers no extra field is looked at again on each.
const keys = new WeakMap<Operation, Keys>();

function keysOf(operation: Operation, run: RunMemory): Keys {
  let known = keys.get(operation);
  if (!known) {
    const role = run.roles.get(operation.operationId);
    const idField = role?.kind === 'create' && assignsIds(role.resource) ? role.resource.id?.name : undefined;
    known = { idsKey: `ids ${operation.operationId}`, idField, answers: new Map() };
    keys.set(operation, known);
  }
  return known;
}

function answerOf({ answers }: Keys, operation: Operation, status: number): Answer {
  let answer = answers.get(status);
  if (answer === undefined) {
    const schema = findResponse(operation, status)?.contents.find((c) => c.schema !== undefined)?.schema;
    // A list's records are judged by their first one: a bare array of objects (a wrapped page's own fields aside).
    const listed = listedIn(schema)?.pointer.length === 0;
    answer = {
      extraKey: `extra ${operation.operationId} ${status}`,
      declared: declaredFields(listed ? (schema?.items as JsonSchema) : schema),
      listed,
    };
    answers.set(status, answer);
  }
  return answer;
}

// allOf members count: a Pet written as allOf [NewPet, {id}] lists NewPet's fields too.
function declaredFields(schema: JsonSchema | undefined): object | undefined {
  const declared = objectShape(schema)?.properties;
  return declared && Object.keys(declared).length > 0 ? declared : undefined;
}

function extraFields(declared: object, body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body).filter((key) => !(key in declared));
}
