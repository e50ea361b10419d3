import { mapLeaves } from '../../../contract/map-leaves.js';
import { wrapRecord, wrapRequest } from '../../../contract/resources/envelope.js';
import { resourceRoles } from '../../../contract/resources/resource-roles.js';
import type { ResourceModel, ResourceOperation } from '../../../contract/resources/resource.js';
import type { Scenario, Step, StepExpectation } from '../scenario.js';

/**
 * Generated cases are written in records; where the contract wraps a record in an envelope (docs/reference/resources.md
 * rule 10), a step's JSON body goes out inside its request's envelope, its expected body is looked for inside the
 * answer's, and `{{capture.body.<field>}}` reads the captured answer's record (`{{own.body.data.id}}`).
 */
export function withEnvelopes(scenario: Scenario, model: ResourceModel): Scenario {
  const roles = resourceRoles(model);
  const placeOf = (step: Step): ResourceOperation | undefined =>
    roles.get(step.operation.operationId)?.resource.operations.find((op) => op.operationId === step.operation.operationId);
  if (!scenario.steps.some((step) => enveloped(placeOf(step)))) return scenario;
  const captured = new Map<string, readonly string[]>();
  const steps = scenario.steps.map((step) => {
    const place = placeOf(step);
    const read = captured.size === 0 ? step : readingRecords(step, captured);
    const sent = place && place.requestRecord.length > 0 ? wrappedBody(read) : read;
    const answered = place && place.answerRecord.length > 0 ? expectingRecord(sent, place.answerRecord) : sent;
    if (step.capture !== undefined && place && place.answerRecord.length > 0) captured.set(step.capture, place.answerRecord);
    return answered;
  });
  return { ...scenario, steps };
}

function enveloped(place: ResourceOperation | undefined): boolean {
  return place !== undefined && (place.requestRecord.length > 0 || place.answerRecord.length > 0);
}

// A record goes inside the envelope; a body that is no object (an invalid-bodies case's null or array) tests the
// body's own top, and goes as it is.
function wrappedBody(step: Step): Step {
  const value = step.body?.kind === 'json' ? step.body.value : undefined;
  // A repeated create sends a record of its own each time (`{{repeat.each}}`): each goes inside the envelope.
  if (value === EACH && step.repeat?.each !== undefined) {
    const each = step.repeat.each.map((one) => (isRecord(one) ? wrapRequest(step.operation, one) : one));
    return { ...step, repeat: { ...step.repeat, each } };
  }
  if (!isRecord(value)) return step;
  return { ...step, body: { kind: 'json', value: wrapRequest(step.operation, value) } };
}

const EACH = '{{repeat.each}}';

function isRecord(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// A list's expectations (listAt) read its records where the list puts them already.
function expectingRecord(step: Step, pointer: readonly string[]): Step {
  const { body, bodyNot, listAt } = step.expect;
  if (listAt !== undefined || (body === undefined && bodyNot === undefined)) return step;
  const expect: StepExpectation = {
    ...step.expect,
    ...(body === undefined ? {} : { body: wrapRecord(body, pointer, []) }),
    ...(bodyNot === undefined ? {} : { bodyNot: wrapRecord(bodyNot, pointer, []) as Record<string, unknown> }),
  };
  return { ...step, expect };
}

const CAPTURE_BODY = /\{\{([^{}.\s]+)\.body\./g;

function readingRecords(step: Step, captured: ReadonlyMap<string, readonly string[]>): Step {
  const rewrite = (value: unknown) =>
    mapLeaves(value, (leaf) =>
      typeof leaf === 'string' && leaf.includes('{{')
        ? leaf.replace(CAPTURE_BODY, (whole, name: string) => {
            const pointer = captured.get(name);
            return pointer === undefined ? whole : `{{${name}.body.${pointer.map((p) => `${p}.`).join('')}`;
          })
        : leaf,
    );
  return {
    ...step,
    path: rewrite(step.path) as Step['path'],
    query: rewrite(step.query) as Step['query'],
    headers: rewrite(step.headers) as Step['headers'],
    body: rewrite(step.body) as Step['body'],
    expect: rewrite(step.expect) as Step['expect'],
  };
}
