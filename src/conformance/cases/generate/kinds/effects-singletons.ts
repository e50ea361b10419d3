import type { Contract } from '../../../../contract/load-contract.js';
import type { Operation } from '../../../../contract/operation.js';
import { objectShape } from '../../../../contract/resources/object-shape.js';
import { answerSchema, requestSchema } from '../../../../contract/resources/representation.js';
import type { ResourceModel, Singleton, SingletonOperationKind } from '../../../../contract/resources/resource.js';
import type { Scenario } from '../../scenario.js';
import type { NotMade } from '../case-kind.js';
import { changedField } from '../changed-field.js';
import type { Random } from '../create-random.js';
import { successStatuses } from '../expected-statuses.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { ownRecord, pathParams } from '../own-records.js';
import { sampleValue } from '../sample-value.js';
import { shownFields } from './effects-context.js';

/** What the cases of one single record share: its operations, the fields a write leaves to the server. */
interface Plan {
  readonly singleton: Singleton;
  readonly get: Operation;
  readonly replace: Operation | undefined;
  readonly patch: Operation | undefined;
  /** readOnly fields of the record: never sent, never compared. */
  readonly server: readonly string[];
}

/**
 * The effects case of each single record (docs/reference/resources.md rule 12): read it, PUT a valid record that
 * differs and read exactly it back, PATCH one field and read the merge, then put the record read first back. A
 * top-level record is the target's own, shared by every case: its case runs alone, after the others, and restores
 * it. One under a parent works on a parent the case created, and a second parent's record must stay as it was.
 */
export function singletonCases(contract: Contract, model: ResourceModel, random: Random, kind: string): Scenario[] {
  return (model.singletons ?? []).flatMap((singleton): Scenario[] => {
    const plan = planOf(singleton, contract);
    if (!plan || !(plan.replace || plan.patch)) return [];
    if (singleton.parent === undefined) return [{ ...topCase(plan, kind), alone: true }];
    const parent = model.resources.find((r) => r.key === singleton.parent);
    const own = parent && ownRecord(parent, model, contract, random, 'parent');
    const other = parent && ownRecord(parent, model, contract, random, 'other');
    if (!own || !other || 'reason' in own || 'reason' in other) return [];
    const steps = [...own.steps, ...other.steps.map((step) => ({ ...step, setup: true }))];
    return [nestedCase(plan, kind, steps, own.values, other.values)];
  });
}

/** What cannot be done for a single record: a parent the run cannot make, an original it cannot put back. */
export function singletonNotMade(contract: Contract, model: ResourceModel, random: Random): NotMade[] {
  return (model.singletons ?? []).flatMap((singleton): NotMade[] => {
    const plan = planOf(singleton, contract);
    if (!plan) return [];
    const parent = model.resources.find((r) => r.key === singleton.parent);
    const own = parent && ownRecord(parent, model, contract, random, 'parent');
    if (own && 'reason' in own)
      return [{ operationId: plan.get.operationId, cases: `effects of ${singleton.path}`, reason: own.reason }];
    const why = singleton.parent === undefined ? unrestorable(plan) : undefined;
    const restore = plan.replace ?? plan.patch;
    return [
      ...(why && restore
        ? [{ operationId: restore.operationId, cases: `effects/${restore.operationId}/restored`, reason: why }]
        : []),
      ...unpatchable(plan),
    ];
  });
}

// The PATCH step changes one field at the body's top; a record inside an envelope (`{ data: {...} }`), which a
// single record's GET cannot be told from a record whose one field is an object (it has no id to find it by),
// offers none: the step is said, not dropped in silence.
function unpatchable(plan: Plan): NotMade[] {
  if (!plan.patch || Object.keys(changedField(requestSchema(plan.patch), {}, plan.server, 'patched')).length > 0) return [];
  return [
    {
      operationId: plan.patch.operationId,
      cases: `the PATCH step of effects/${plan.get.operationId}/update-took-effect`,
      reason: `${plan.patch.operationId} takes no text or enum field at the top of its body to change (a record inside an envelope is written and read whole, by the PUT)`,
    },
  ];
}

function planOf(singleton: Singleton, contract: Contract): Plan | undefined {
  const byKind = (kind: SingletonOperationKind) => {
    const id = singleton.operations.find((o) => o.kind === kind)?.operationId;
    return id === undefined ? undefined : contract.byId.get(id);
  };
  const get = byKind('get');
  if (!get) return undefined;
  const properties = objectShape(singleton.schema)?.properties ?? {};
  const server = Object.keys(properties).filter((name) => (properties[name] as { readOnly?: boolean }).readOnly === true);
  return { singleton, get, replace: byKind('replace'), patch: byKind('merge-patch'), server };
}

// A top-level record is put back as it was read, where that is a valid request: every field the read answers is one
// the write takes, and none is the server's. Otherwise the run leaves it as the case set it, and says so.
function unrestorable(plan: Plan): string | undefined {
  const write = plan.replace ?? plan.patch;
  const offered = objectShape(write && requestSchema(write));
  const closed = (write && requestSchema(write))?.additionalProperties === false;
  const shown = Object.keys(objectShape(plan.singleton.schema)?.properties ?? {});
  const refused = shown.filter((name) => plan.server.includes(name) || (closed && !offered?.properties[name]));
  return refused.length === 0
    ? undefined
    : `${plan.get.operationId} answers ${refused.join(', ')}, which ${write?.operationId} does not take: the record is left as the case wrote it, not as it was`;
}

interface Writes {
  /** The writes and the reads that judge them. */
  readonly steps: StepSpec[];
  /** The field the PUT changed and its value: what a record of another parent must not show. */
  readonly put: { readonly field: string; readonly value: unknown } | undefined;
}

// PUT a valid record that differs, read exactly it; PATCH one field, read the merge.
function writes(plan: Plan, values: readonly string[], between: (put: Writes['put']) => StepSpec[]): Writes {
  const steps: StepSpec[] = [];
  const read = (body: Record<string, unknown>): StepSpec => ({
    operation: plan.get,
    params: pathParams(plan.get, values),
    expect: {
      effect: { check: 'update-took-effect', status: ['2XX'], body: shownFields(plan.singleton.schema, plan.server, body, true) },
    },
  });
  let written: Record<string, unknown> = {};
  let put: Writes['put'];
  if (plan.replace) {
    const schema = requestSchema(plan.replace);
    const sample = { ...((sampleValue(schema, true) ?? {}) as Record<string, unknown>) };
    for (const name of plan.server) delete sample[name];
    const change = changedField(schema, sample, plan.server);
    written = { ...sample, ...change };
    const [field] = Object.keys(change);
    put = field === undefined ? undefined : { field, value: change[field] };
    steps.push(write(plan, plan.replace, values, written), read(written), ...between(put));
  }
  if (plan.patch) {
    const change = changedField(requestSchema(plan.patch), written, plan.server, 'patched');
    if (Object.keys(change).length > 0) {
      written = { ...written, ...change };
      steps.push(write(plan, plan.patch, values, change, plan.replace ? written : change), read(written));
    }
  }
  return { steps, put };
}

function write(
  plan: Plan,
  operation: Operation,
  values: readonly string[],
  body: Record<string, unknown>,
  shown: Record<string, unknown> = body,
): StepSpec {
  const answer = answerSchema(operation)
    ? { effect: { check: 'update-took-effect' as const, body: shownFields(plan.singleton.schema, plan.server, shown, true) } }
    : {};
  return {
    operation,
    params: pathParams(operation, values),
    body: { kind: 'json', value: body },
    expect: { status: successStatuses(operation), ...answer },
    capture: 'written',
  };
}

function topCase(plan: Plan, kind: string): Scenario {
  const { singleton, get } = plan;
  const restore = unrestorable(plan) === undefined ? (plan.replace ?? plan.patch) : undefined;
  const { steps } = writes(plan, [], () => []);
  return makeCase({
    kind,
    id: `${get.operationId}/update-took-effect`,
    name: `${singleton.path} shows exactly what a PUT or PATCH wrote`,
    description: `Given the record ${get.operationId} reads, when it is replaced with other valid values and one field is then merged (RFC 7396), then ${get.operationId} shows exactly each (update-took-effect); the record read first is put back${restore ? '' : ' where a request can carry it'}.`,
    steps: [
      { operation: get, expect: { status: successStatuses(get) }, capture: 'original' },
      ...steps,
      ...(restore
        ? [
            {
              operation: restore,
              body: { kind: 'json' as const, value: '{{original.body}}' },
              expect: { status: successStatuses(restore) },
            },
          ]
        : []),
    ],
  });
}

function nestedCase(
  plan: Plan,
  kind: string,
  parents: StepSpec[],
  values: readonly string[],
  others: readonly string[],
): Scenario {
  const { singleton, get } = plan;
  const { steps } = writes(plan, values, (put) =>
    put === undefined
      ? []
      : [
          {
            operation: get,
            params: pathParams(get, others),
            expect: {
              effect: {
                check: 'others-untouched',
                status: ['2XX'],
                absent: { field: put.field, was: put.value, allowed: [], writeStatus: '{{written.status}}' },
              },
            },
          },
        ],
  );
  return makeCase({
    kind,
    id: `${get.operationId}/update-took-effect`,
    name: `${singleton.path} of a parent shows exactly what a PUT or PATCH wrote there, and nowhere else`,
    description: `Given two parents the case created, when the first one's record is replaced with other valid values and one field is then merged (RFC 7396), then ${get.operationId} shows exactly each (update-took-effect), and the second parent's record does not show the change (others-untouched).`,
    steps: [...parents, { operation: get, params: pathParams(get, values), expect: { status: successStatuses(get) } }, ...steps],
  });
}
