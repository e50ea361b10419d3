import { describeIssues } from '../../contract/compile-schema.js';
import { parseJson, stringifyJson } from '../../contract/lossless-json.js';
import { pathParameterNames } from '../../contract/resources/read-path.js';
import { mockError } from '../error-codes.js';
import type { MockResponse } from '../handler.js';
import type { SessionStores } from '../session-stores.js';
import type { ResourceStores } from '../store/resource-stores.js';
import { parentScope } from './singleton-handlers.js';
import type { SingletonPlan } from './singleton-plans.js';

/** One single record named by an admin `?path=` (`/settings`, `/projects/3/settings`), in one store. */
interface Located {
  readonly plan: SingletonPlan;
  readonly scope: string | undefined;
  readonly path: string;
}

/**
 * Every single record of a store (docs/reference/resources.md rule 12): each one at the top, written or still its
 * seed, and each one under a parent that was written; `written` tells which. A record under a parent never
 * written reads as its seed and is not listed: a store of a million projects would list a million seeds.
 */
export function listSingletons(
  sessions: SessionStores,
  session: string | undefined,
  plans: ReadonlyMap<string, SingletonPlan>,
): MockResponse {
  const resources = existing(sessions, session);
  const listed: unknown[] = [];
  for (const plan of plans.values()) {
    const { key, parent, path } = plan.singleton;
    if (parent !== undefined) continue;
    const json = resources.singletons.get(key, undefined, undefined);
    listed.push({ path, written: json !== undefined, record: parseJson(json ?? plan.seed) });
  }
  for (const held of resources.singletons.entries()) {
    const plan = plans.get(held.key);
    if (!plan || held.parent === undefined) continue;
    listed.push({ path: concretePath(plan, held.scope), written: true, record: parseJson(held.json) });
  }
  return json(200, listed);
}

/** The record at `?path=`, as a GET of it answers it. */
export function readSingleton(
  sessions: SessionStores,
  session: string | undefined,
  plans: ReadonlyMap<string, SingletonPlan>,
  path: string | null,
): MockResponse {
  const resources = existing(sessions, session);
  const { plan, scope } = locate(plans, path, resources);
  return { status: 200, body: resources.singletons.get(plan.singleton.key, plan.singleton.parent, scope) ?? plan.seed };
}

/**
 * The record at `?path=` replaced by the body, checked against the GET's schema as a write's result is (400
 * validation_failed), paid for from the byte budget (409 store_full), readOnly fields as given: a test's chosen state.
 */
export function replaceSingleton(
  sessions: SessionStores,
  session: string | undefined,
  plans: ReadonlyMap<string, SingletonPlan>,
  path: string | null,
  text: string,
): MockResponse {
  const { resources } = sessions.contextFor(session);
  const { plan, scope, path: named } = locate(plans, path, resources);
  let record: unknown;
  try {
    record = parseJson(text);
  } catch {
    throw mockError('invalid_json');
  }
  const issues = plan.validate(record, 'body');
  if (issues.length > 0) throw mockError('validation_failed', describeIssues(issues));
  const stored = stringifyJson(record);
  resources.singletons.set(plan.singleton.key, plan.singleton.parent, scope, stored);
  return { status: 200, body: `{"status":"replaced","path":${JSON.stringify(named)},"record":${stored}}` };
}

/** The record at `?path=` back to its seed; without a path, every single record of the store. */
export function resetSingletons(
  sessions: SessionStores,
  session: string | undefined,
  plans: ReadonlyMap<string, SingletonPlan>,
  path: string | null,
): MockResponse {
  const resources = session === undefined ? sessions.default : sessions.peekResources(session);
  if (path === null) {
    resources?.singletons.clear();
    return json(200, { status: 'reset' });
  }
  if (!resources) return json(200, { status: 'reset', path });
  const { plan, scope, path: named } = locate(plans, path, resources);
  resources.singletons.drop(plan.singleton.key, plan.singleton.parent, scope);
  return json(200, { status: 'reset', path: named });
}

function existing(sessions: SessionStores, session: string | undefined): ResourceStores {
  const resources = sessions.peekResources(session);
  if (!resources) throw mockError('not_found', `no session named ${session} has been used yet`);
  return resources;
}

// `/projects/3/settings` against `/projects/{projectId}/settings`: a parameter takes one segment, as in a request.
function locate(plans: ReadonlyMap<string, SingletonPlan>, path: string | null, resources: ResourceStores): Located {
  if (path === null) throw mockError('invalid_parameter', `query.path is required: one of ${known(plans)}`);
  const segments = path.split('/');
  for (const plan of plans.values()) {
    const template = plan.singleton.path.split('/');
    if (template.length !== segments.length) continue;
    const values: Record<string, string | undefined> = {};
    const fits = template.every((part, i) => {
      const segment = segments[i] as string;
      if (!/^\{[^}]+\}$/.test(part)) return part === segment;
      const value = decoded(segment);
      values[part.slice(1, -1)] = value;
      return segment !== '' && value !== undefined;
    });
    if (!fits) continue;
    const { parent } = plan;
    return { plan, path, scope: parent === undefined ? undefined : parentScope(plan, parent, values, resources) };
  }
  throw mockError('not_found', `no single record is at ${JSON.stringify(path.slice(0, 80))}: name one of ${known(plans)}`);
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function known(plans: ReadonlyMap<string, SingletonPlan>): string {
  return [...plans.values()].map((p) => p.singleton.path).join(', ') || '(none: the contract has no single record)';
}

function concretePath(plan: SingletonPlan, scope: string | undefined): string {
  const ids = scope === undefined ? [] : (JSON.parse(scope) as string[]);
  let path = plan.singleton.path;
  pathParameterNames(path).forEach((name, i) => {
    path = path.replace(`{${name}}`, encodeURIComponent(ids[i] ?? ''));
  });
  return path;
}

function json(status: number, value: unknown): MockResponse {
  return { status, body: stringifyJson(value) };
}
