import type { Problem } from '../../../contract/judge/problem.js';
import type { Operation } from '../../../contract/operation.js';
import { type ContractView, inferResources } from '../../../contract/resources/infer-resources.js';
import {
  assignsIds,
  hasRole,
  operationOf,
  type ResourceRole,
  resourceRoles,
} from '../../../contract/resources/resource-roles.js';
import type { Exchange } from '../../http/exchange.js';
import type { StepExpectation } from '../../cases/scenario.js';
import type { Severity } from '../severity.js';

export interface CheckSettings {
  readonly timeoutMs: number;
  readonly maxResponseTimeMs: number;
}

/** What checks remember across one run: ids that creates returned, so a second assignment of one is seen. */
export interface RunMemory {
  /** Each operation's place in the resource model (contract/resources/), by operationId. */
  readonly roles: ReadonlyMap<string, ResourceRole>;
  /**
   * Creates whose service-assigned ids address their records (createPet, read back by getPet), with the id field:
   * two creates never get one id. Without such a read (POST /messages) the contract does not say ids are unique.
   */
  readonly identifyingCreates: ReadonlyMap<string, string>;
  /** `operationId id` → the case that first received it. */
  readonly assignedIds: Map<string, string>;
  /** Open choices of the target already recorded as observations (open-choices.ts): each once per run. */
  readonly noted: Set<string>;
  /** List operation → the create whose resources it lists (GET /pets → createPet). */
  readonly listedFrom: ReadonlyMap<string, string>;
  /** The creates some list operation lists. */
  readonly listedCreates: ReadonlySet<string>;
  /** createId → id → the fields that create answered, to compare with how the list shows the resource. */
  readonly createdFields: Map<string, Map<string, object>>;
  /** The marks (resource-marks.ts) of creates the target refused with a 4xx: none may show in a later answer. */
  readonly refusedMarks: Set<string>;
  /** Item reads (GET /pets/{petId}) → the id field of the record they answer. */
  readonly fetchedBy: ReadonlyMap<string, string>;
  /**
   * caseId → the marks its own creates sent that a later step of the same case must be able to see (refused and
   * once marks): when its list answer cannot show them, the check says "not verified" rather than passing.
   */
  readonly caseMarks: Map<string, Set<string>>;
}

export type { Problem };

export function createRunMemory(contract: ContractView): RunMemory {
  const roles = resourceRoles(inferResources(contract));
  const byId = new Map(contract.operations.map((op) => [op.operationId, op]));
  const identifying = new Map<string, string>();
  const listedFrom = new Map<string, string>();
  const fetchedBy = new Map<string, string>();
  for (const [operationId, { resource, kind }] of roles) {
    const id = resource.id?.name as string;
    if (kind === 'create' && hasRole(resource, 'get') && assignsIds(resource)) identifying.set(operationId, id);
    if (kind === 'get') fetchedBy.set(operationId, id);
    // Records the contract lets a PUT or PATCH change are listed as last written, not as created: a case running
    // beside another's update would see a false positive. effects' update-took-effect judges those values.
    const create = operationOf(resource, 'create', byId);
    const updatable = hasRole(resource, 'replace') || hasRole(resource, 'merge-patch');
    if (kind === 'list' && create && !updatable) listedFrom.set(operationId, create.operationId);
  }
  return {
    roles,
    identifyingCreates: identifying,
    assignedIds: new Map(),
    noted: new Set(),
    listedFrom,
    listedCreates: new Set(listedFrom.values()),
    createdFields: new Map(),
    refusedMarks: new Set(),
    fetchedBy,
    caseMarks: new Map(),
  };
}

/**
 * Everything a check may read: plain values, no I/O. An exchange is judged against the contract alone with
 * `expect` undefined; the judgements that need no more than the contract are in src/contract/judge/, for the mock
 * and its tests too.
 */
export interface CheckInput {
  readonly operation: Operation;
  readonly exchange: Exchange;
  /** 'run-key': the request carried the run's key; 'refusable': it was sent without valid credentials. */
  readonly credentials: 'run-key' | 'refusable';
  /** What the case expects beyond the contract (a status, a body subset); undefined for none. */
  readonly expect: StepExpectation | undefined;
  /** The case observes an answer the contract leaves open (limit=101): see Check.observed. */
  readonly observing: boolean;
  /** The case that sent it, as reports name it. */
  readonly caseId: string;
  readonly settings: CheckSettings;
  readonly run: RunMemory;
}

/**
 * How a check treats an observed answer: 'applies' always, 'documented' only when the contract documents the
 * status that came (an undocumented one has no schema or media type to hold it to), 'skipped' never.
 */
export type OnObserved = 'applies' | 'documented' | 'skipped';

/** One property of the contract. A check returns at most one problem per exchange. */
export interface Check {
  /** kebab-case, stable: reports, tests and people refer to it. */
  readonly id: string;
  readonly severity: Severity;
  /** The clause of the service description the check enforces. */
  readonly clause: string;
  /**
   * The clause for a case from a scenario file, when it differs: a step's `expect` there is what the file's
   * author wrote, which the contract may not say (a hand-written `status: 202`).
   */
  readonly fileClause?: string;
  readonly observed: OnObserved;
  readonly check: (input: CheckInput) => Problem | undefined;
  /**
   * Why this exchange could not show the property, when it found no problem but could not have seen one (a full
   * page may hold the resource on a later one): reported "not verified" with the reason, never as a pass.
   */
  readonly unverified?: (input: CheckInput) => string | undefined;
}

/** Remembers marks a case's create sent, for a later step of the same case (RunMemory.caseMarks). */
export function rememberCaseMarks(input: CheckInput, marks: readonly string[]): void {
  if (marks.length === 0) return;
  const known = input.run.caseMarks.get(input.caseId) ?? new Set<string>();
  for (const mark of marks) known.add(mark);
  input.run.caseMarks.set(input.caseId, known);
}

/** The marks starting with `prefix` that this case's creates sent (rememberCaseMarks). */
export function caseMarks(input: CheckInput, prefix: string): string[] {
  // Asked of every answer, and most cases send no marks.
  const marks = input.run.caseMarks.get(input.caseId);
  return marks === undefined ? [] : [...marks].filter((mark) => mark.startsWith(prefix));
}
