import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { inferResources } from '../../../../contract/resources/infer-resources.js';
import { referencedResource } from '../../../../contract/resources/referenced-resource.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import { resourceRoles } from '../../../../contract/resources/resource-roles.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind, GenerateContext } from '../case-kind.js';
import { invalidInputStatus } from '../expected-statuses.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { freshWrite, readBack, roundTrip } from '../round-trip.js';
import { sampleValue } from '../sample-value.js';
import { type Variant, validVariants } from '../value-variants.js';

export const validBodiesKind: CaseKind = {
  id: 'valid-bodies',
  description:
    'valid bodies at the edges of each field (enum values, bounds, int64 ends, hard strings, optional fields absent and present) are accepted and come back unchanged; a value valid only for want of a bound (an empty or a 10,000-character string, 0 and negatives) may get the documented refusal, recorded',
  generate: (context) =>
    context.contract.operations.flatMap((operation) => {
      const schema = requestSchema(operation);
      return schema?.type === 'object' ? casesFor(operation, schema, context) : [];
    }),
};

function casesFor(operation: Operation, schema: JsonSchema, context: GenerateContext): Scenario[] {
  const op = operation.operationId;
  const base = sampleValue(schema) as Record<string, unknown>;
  // Only a resource that can be fetched again is held to answering what it was sent (round-trip.ts).
  const created = readBack(context.contract, operation);
  const echoes = created !== undefined;
  // Each case names its own record where the client names ids, and its own unique keys: the same sample ISBN or
  // email twice is a conflict. A value the case chose on purpose, other than the sample, keeps it.
  const fresh = (sent: Record<string, unknown>, field: string | undefined) => {
    if (field !== undefined && field === created?.resource.id?.name) return sent;
    const out = freshWrite(context.contract, operation, sent, context.random);
    // The field a variant sets keeps its value even where it equals the sample (a pattern's own example).
    return field === undefined || out[field] === sent[field] ? out : { ...out, [field]: sent[field] };
  };
  // `readAgain`: the new resource is fetched twice, a GET being safe (RFC 9110 §9.2.1): a read that changes what
  // the next one answers (a view counter written into the name) shows only on a second read.
  const make = (
    id: string,
    what: string,
    sent: Record<string, unknown>,
    { field, mayChange, readAgain }: { field?: string; mayChange?: string; readAgain?: boolean } = {},
  ) => {
    const [create, ...reads] = roundTrip(context.contract, operation, fresh(sent, field));
    return makeCase({
      kind: 'valid-bodies',
      id: `${op}/${id}`,
      name: echoes ? `${op} accepts ${what} and answers it unchanged` : `${op} accepts ${what}`,
      description: echoes
        ? `Given a valid body with ${what}, when it is sent to ${op}, then the answer is its documented success with every sent field unchanged${mayChange ? ` (${mayChange}, recorded)` : ''}, and fetching the new resource gives the same fields${readAgain && reads.length > 0 ? ', twice' : ''}.`
        : `Given a valid body with ${what}, when it is sent to ${op}, then the answer is its documented success, in its documented schema.`,
      steps: [
        mayChange ? { ...(create as StepSpec), observe: `what ${op} keeps of ${what} (${mayChange})` } : (create as StepSpec),
        ...reads,
        ...(readAgain ? reads : []),
      ],
    });
  };
  const refusal = invalidInputStatus(operation);
  // A value valid only because the contract sets no bound (an empty or a 10,000-character name, a categoryId of 0)
  // may get the documented refusal: recorded. Taken, it is read back unchanged like any other.
  const takenOrRefused = (name: string, variant: Variant, why: string, refused: number | '4XX') => {
    const what = `${name} set to ${variant.what}`;
    const [create, ...reads] = roundTrip(context.contract, operation, fresh({ ...base, [name]: variant.value }, name));
    const { body: _answer, ...expect } = (create as StepSpec).expect ?? {};
    const steps: StepSpec[] = [
      {
        ...(create as StepSpec),
        expect: { ...expect, status: [...(expect.status ?? []), refused] },
        observe: `whether ${op} takes ${what} (${why})`,
      },
      ...reads.map((read) => ({ ...read, unlessMissing: `${op} refused ${what}: ${why}` })),
    ];
    return makeCase({
      kind: 'valid-bodies',
      id: `${op}/${name}/${variant.id}`,
      name: `${op} takes ${what} unchanged, or refuses it with ${refused}`,
      description: `Given a valid body with ${what}, when it is sent to ${op}, then the answer is its documented success, and the new resource is read back with every sent field unchanged where it can be; or the documented ${refused}, recorded: ${why}.`,
      steps,
    });
  };
  const cases = [
    make('required-fields-only', 'only the required fields', base),
    make('all-fields', 'every field the schema defines', sampleValue(schema, true) as Record<string, unknown>, {
      readAgain: true,
    }),
  ];
  const model = inferResources(context.contract);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    // Any other value of a field that refers to another resource's records names a record that may not exist.
    const referenced = referencedResource(model, name, resourceRoles(model).get(operation.operationId)?.resource, property);
    const refers = referenced && `${name} refers to a ${referenced.name} record, and a server may check that it exists`;
    for (const variant of validVariants(property, context.random)) {
      const mayRefuse = refers && variant.mayRefuse ? `${variant.mayRefuse}; ${refers}` : (refers ?? variant.mayRefuse);
      // A record that does not exist may be refused as a bad body (400, 422) or as a missing record (404): any 4xx.
      // An operation that documents no refusal (a generated contract listing successes alone) leaves the status of
      // one to the server: any 4xx, recorded.
      const refused = refers !== undefined ? '4XX' : (refusal ?? '4XX');
      cases.push(
        mayRefuse !== undefined && refused !== undefined
          ? takenOrRefused(name, variant, mayRefuse, refused)
          : make(
              `${name}/${variant.id}`,
              `${name} set to ${variant.what}`,
              { ...base, [name]: variant.value },
              { field: name, ...(variant.mayChange ? { mayChange: variant.mayChange } : {}) },
            ),
      );
    }
  }
  cases.push(
    makeCase({
      kind: 'valid-bodies',
      id: `${op}/extra-field`,
      name: `${op} does not fail on a field the schema does not define`,
      description: `Given a valid body with an extra field, when it is sent to ${op}, then the answer is a success or a 4xx: the schema allows extra properties, and a server error is never right.`,
      steps: [
        {
          operation,
          body: { kind: 'json', value: { ...base, conformanceExtra: `extra ${context.random.text(6)}` } },
          expect: { status: ['2XX', '4XX'] },
        },
      ],
    }),
  );
  return cases;
}
