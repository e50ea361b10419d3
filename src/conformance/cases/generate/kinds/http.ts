import type { Contract } from '../../../../contract/load-contract.js';
import type { Operation } from '../../../../contract/operation.js';
import { inferResources } from '../../../../contract/resources/infer-resources.js';
import { pathParameterNames } from '../../../../contract/resources/read-path.js';
import { resourceRoles } from '../../../../contract/resources/resource-roles.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind } from '../case-kind.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { listedIds } from '../listed-ids.js';
import { freeParameters, readsOwnRecords } from '../own-records.js';
import { validRequest } from '../valid-request.js';

/**
 * What HTTP itself asks of the contract's operations, a few requests a run: HEAD and OPTIONS beside each GET, and
 * the end of a 204 where one may come. HEAD and OPTIONS go out raw (http/send-raw.ts) so the bytes after an answer
 * that can have no content are seen.
 */
export const httpKind: CaseKind = {
  id: 'http',
  description:
    'HEAD on each GET operation is answered as its GET, without content, and not served without a key, and OPTIONS on its path is answered (either may be refused with 405 or 501, never with a server error); an operation that may answer 204 (one documented, a 2XX range, or a PUT, PATCH or DELETE) is sent once on a socket of its own, and no byte may follow a 204',
  generate: ({ contract, readOnly }) =>
    contract.operations.flatMap((operation) => {
      if (operation.method === 'GET')
        return [
          headAndOptions(operation, contract, readOnly),
          ...(operation.auth === 'key' ? [headWithoutKey(operation, contract, readOnly)] : []),
        ];
      const why = whyNoContent(operation);
      return why === undefined ? [] : [noContent(operation, why)];
    }),
};

// HTTP names 204 as a success of PUT and DELETE (RFC 9110 §9.3.4, §9.3.5) and of PATCH (RFC 5789 §2.1): servers
// answer them with a 204 the contract does not document, and the bytes after it are then seen by no other case.
const NO_CONTENT_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

/** Why the operation may answer 204, or undefined when nothing says it may. */
function whyNoContent(operation: Operation): string | undefined {
  if (operation.responses.some((r) => r.code === '204')) return 'which documents a 204';
  if (operation.responses.some((r) => r.code === '2XX')) return 'whose documented 2XX takes in a 204';
  if (NO_CONTENT_METHODS.has(operation.method)) return `a ${operation.method}, which HTTP lets answer 204`;
  return undefined;
}

function freeCount(operation: Operation, contract: Contract): number {
  const model = inferResources(contract);
  const role = resourceRoles(model).get(operation.operationId);
  return role ? freeParameters(role.resource, model, operation).length : 0;
}

function headAndOptions(operation: Operation, contract: Contract, readOnly: boolean): Scenario {
  const op = operation.operationId;
  const { before, request, given } = readOnly ? listedRead(operation, contract) : { ...ownRead(operation, contract), given: '' };
  const asGet = { status: '{{get.status}}', headers: '{{get.headers}}' };
  // A read under a path parameter names a record (or a parent's records) no other case writes, the run writing only
  // to its own: the HEAD's Content-Length is the GET's (RFC 9110 §8.6). A top-level list may gain another case's
  // record between the two, where its order puts the newest first; so may a list under parameters that name no
  // record, which cases share where the contract gives their example (`/repos/{owner}/{repo}/issues`, own-records.ts).
  const sameContent = pathParameterNames(operation.path).length > freeCount(operation, contract);
  return makeCase({
    kind: 'http',
    id: `${op}/head-options`,
    name: `${op}: HEAD answers as GET without content, OPTIONS is answered`,
    description: `Given ${op} answered a GET${given}, when the same request is sent as HEAD and then as OPTIONS, then HEAD is served with the GET's status class and Content-Type${sameContent ? ' and, when both send one, its Content-Length' : ''} and no byte after its header block, or refused with a 4xx or 501; OPTIONS is served or refused, never with a server error.`,
    steps: [
      ...before,
      // The GET is what HEAD is compared with; other cases judge its answer.
      { ...request, setup: true, capture: 'get' },
      { ...request, method: 'HEAD', raw: true, expect: { asGet: { ...asGet, ...(sameContent ? { sameContent } : {}) } } },
      {
        ...request,
        method: 'OPTIONS',
        raw: true,
        observe: `OPTIONS ${operation.path}: what the target answers (served, or refused with a 4xx or 501)`,
      },
    ],
  });
}

// HEAD is the GET without its content (RFC 9110 §9.3.2), so it asks for what the GET guards: a server whose auth
// is bound to the GET method alone serves it, and its status and headers tell what the record holds.
function headWithoutKey(operation: Operation, contract: Contract, readOnly: boolean): Scenario {
  const op = operation.operationId;
  const { before, request } = readOnly ? listedRead(operation, contract) : ownRead(operation, contract);
  return makeCase({
    kind: 'http',
    id: `${op}/head-without-key`,
    name: `${op}: HEAD without a key is not served`,
    description: `Given what ${op} serves with the run's key, when the same request is sent as HEAD without a key, then it is not served: a 401, or any 4xx or 501 (auth-enforced).`,
    steps: [
      ...before,
      {
        ...request,
        method: 'HEAD',
        raw: true,
        auth: 'none',
        observe: `HEAD ${operation.path} without a key: how the target refuses it`,
      },
    ],
    tags: ['security'],
  });
}

function noContent(operation: Operation, why: string): Scenario {
  const op = operation.operationId;
  return makeCase({
    kind: 'http',
    id: `${op}/no-content`,
    name: `${op}: nothing follows its 204`,
    description: `Given a valid request to ${op}, ${why}, when it is sent on a connection of its own, then a 204 ends at its header block: no byte follows it (a byte would be read as the next answer on the connection). Any other answer is not judged here.`,
    steps: [{ ...validRequest(operation), raw: true }],
  });
}

/**
 * A valid request to a GET; on a resource the run can create, with its path left for bind-own-records.ts to fill
 * with a record of the case's own, so HEAD is compared with a GET that found something.
 */
function ownRead(operation: Operation, contract: Contract): { before: StepSpec[]; request: StepSpec } {
  const request = validRequest(operation);
  // A resource without a create (or a parent without one) has no record of the run's own: its example id is read.
  const own = readsOwnRecords(operation, inferResources(contract), contract);
  return { before: [], request: own ? { ...request, params: {} } : request };
}

/**
 * Under --read-only a create of the case's own would skip it, and HEAD and OPTIONS on item paths would go unprobed:
 * an item read takes the first id its list answers (the case is skipped, with the reason, when the list is empty),
 * and one no list leads to keeps its example id, a read that may answer the documented 404, which HEAD is compared
 * with all the same.
 */
function listedRead(operation: Operation, contract: Contract): { before: StepSpec[]; request: StepSpec; given: string } {
  const listed = listedIds(contract).find((l) => l.get.operationId === operation.operationId);
  if (!listed) return { before: [], request: validRequest(operation), given: '' };
  return {
    before: [{ operation: listed.list, setup: true, capture: 'list' }],
    request: {
      ...validRequest(operation),
      params: { [listed.param]: listed.value },
      unlessMissing: `${listed.list.operationId} listed no ${listed.resource.name}: no id to read`,
    },
    given: ` for the first id ${listed.list.operationId} lists (skipped when the list is empty)`,
  };
}
