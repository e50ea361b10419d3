import { readFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { AppError } from '../../contract/app-error.js';
import type { Contract } from '../../contract/load-contract.js';
import type { Operation } from '../../contract/operation.js';
import { fileWalk } from './file-walk.js';
import { listScenarioFiles } from './list-scenario-files.js';
import { type TemplateReference, templateReferences } from './interpolate.js';
import { type ParsedScenarioFile, parseScenarioFile, type RawStep } from './parse-scenario-file.js';
import type { AuthChoice, Scenario, Step } from './scenario.js';
import { fieldValueProblem, headerNameProblem } from './scenario-format.js';
import { suggestName } from './suggest-name.js';

/** Names every scenario may use without a step capturing them, with the one key each has (run-scenario's scope). */
export const BUILT_IN_CAPTURES: ReadonlyMap<string, string> = new Map([
  ['run', 'id'],
  ['repeat', 'index'],
  ['env', 'NAME'],
]);
/** `{{env.NAME}}`: an environment variable of the run (a value that is the key is redacted like the key). */
const ENV = 'env';

const AUTH_KEYWORDS = new Set(['default', 'none', 'invalid']);
// RFC 9110 §9.2.1: only these methods are safe; a scenario that sends any other one may change the target.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// RFC 9110 §9.3.1, §9.3.2: content in a GET or HEAD request has no defined meaning; a target may refuse it.
const BODILESS_METHODS = new Set(['GET', 'HEAD']);
// The step fields whose templates are filled in; anywhere else `{{...}}` would be sent or recorded as written.
const FILLED_FIELDS = new Set(['params', 'query', 'headers', 'body', 'rawBody', 'expect', 'repeat']);
// What a capture holds: `{{create.id}}` could never resolve.
const CAPTURE_FIELDS = new Set(['status', 'headers', 'body']);
const GIVEN_WHEN_THEN = ['Given', 'When', 'Then'].map((word) => ({ word, pattern: new RegExp(`\\b${word}\\b`, 'i') }));

/**
 * Reads and checks every scenario file before anything is sent. Any problem throws
 * AppError('scenario_invalid') naming the file, the line and the field.
 */
export async function loadScenarios(
  where: string | readonly string[],
  contract: Contract,
  env: Readonly<Record<string, string | undefined>> = {},
  onForeign?: (note: string) => void,
): Promise<Scenario[]> {
  const scenarios: Scenario[] = [];
  // Synchronous, as listScenarioFiles: a few small files are read faster than one trip through the thread pool.
  // --scenarios given twice adds the second to the first; a file both name is read once.
  const byPath = new Map([where].flat().flatMap((w) => listScenarioFiles(w).map((path) => [resolve(path), path] as const)));
  const files = [...byPath.values()].map((path) => {
    const file = relative(process.cwd(), path) || path;
    try {
      return { file, text: readFileSync(path, 'utf8') };
    } catch (error) {
      throw new AppError('scenario_invalid', `Failed to read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
  });
  const skipped: { file: string; foreign: readonly string[] }[] = [];
  for (const { file, text } of files) {
    const parsed = parseScenarioFile(file, text);
    // The suite nobody named (the shipped pet scenarios) against a contract without their operations: one line,
    // not exit 2 (issue 22). Named with --scenarios, a missing operation stays the error it is.
    const foreign = onForeign && missingOperations(parsed, contract);
    if (foreign) {
      skipped.push({ file, foreign });
      continue;
    }
    const names = new Set<string>();
    parsed.value.scenarios.forEach((raw, s) => {
      if (names.has(raw.name)) parsed.fail(['scenarios', s, 'name'], `'${raw.name}' is used twice in this file`);
      names.add(raw.name);
      const tags = raw.tags ?? [];
      const captured = new Set<string>();
      const steps = raw.steps.map((step, i) => toStep(parsed, contract, step, ['scenarios', s, 'steps', i], captured, env));
      // Checked after the steps, which say more about a broken file than its prose does.
      const missing = GIVEN_WHEN_THEN.filter(({ pattern }) => !pattern.test(raw.description)).map(({ word }) => word);
      if (missing.length > 0) {
        parsed.fail(['scenarios', s, 'description'], `write it as Given ..., when ..., then ... (no ${missing.join(', ')})`);
      }
      const unsafe = steps.find((step) => !SAFE_METHODS.has(step.operation.method));
      if (unsafe && !tags.includes('mutating')) {
        parsed.fail(
          ['scenarios', s, 'tags'],
          `step ${unsafe.index} sends ${unsafe.operation.method}, so the scenario must be tagged 'mutating' (--read-only skips those)`,
        );
      }
      scenarios.push({
        // The file's name, not its path: an id stays the same whatever folder the run starts in.
        id: `${basename(file).replace(/\.ya?ml$/, '')}/${slug(raw.name)}`,
        source: 'file',
        kind: undefined,
        file,
        line: parsed.lineOf(['scenarios', s]),
        name: raw.name,
        description: raw.description.trim(),
        tags,
        steps,
      });
    });
  }
  if (onForeign && skipped.length > 0) {
    const names = skipped.map(({ file }) => basename(file)).join(', ');
    const lacking = [...new Set(skipped.flatMap(({ foreign }) => foreign))].slice(0, 4).join(', ');
    onForeign(
      `Skipped ${skipped.length} scenario file${skipped.length === 1 ? '' : 's'} (${names}): the contract has no ${lacking}; name them with --scenarios to run them anyway.`,
    );
  }
  return scenarios;
}

function toStep(
  parsed: ParsedScenarioFile,
  contract: Contract,
  raw: RawStep,
  at: (string | number)[],
  captured: Set<string>,
  env: Readonly<Record<string, string | undefined>>,
): Step {
  const { operation, pathDefaults } = resolveOperation(parsed, contract, raw.operation, [...at, 'operation']);
  const params = { ...pathDefaults, ...raw.params };
  for (const spec of operation.parameters.filter((p) => p.in === 'path')) {
    if (!(spec.name in params)) parsed.fail([...at, 'params'], `${operation.operationId} needs path parameter '${spec.name}'`);
  }
  for (const name of Object.keys(raw.params ?? {})) {
    if (!operation.parameters.some((p) => p.in === 'path' && p.name === name)) {
      parsed.fail([...at, 'params', name], `${operation.operationId} has no path parameter '${name}'`);
    }
  }
  if (raw.body !== undefined && raw.rawBody !== undefined) parsed.fail([...at, 'rawBody'], 'give body or rawBody, not both');
  const bodyField = raw.body !== undefined ? 'body' : raw.rawBody !== undefined ? 'rawBody' : undefined;
  if (bodyField && BODILESS_METHODS.has(operation.method)) {
    parsed.fail([...at, bodyField], `${operation.method} sends no body: the target could refuse it or ignore it`);
  }
  checkHeaders(parsed, raw, at);
  checkPage(parsed, operation, raw, at);
  const templated = checkTemplates(parsed, raw, at, captured, env);
  if (raw.capture && BUILT_IN_CAPTURES.has(raw.capture)) {
    parsed.fail(
      [...at, 'capture'],
      `'${raw.capture}' is built in ({{${raw.capture}.${BUILT_IN_CAPTURES.get(raw.capture)}}}): choose another name`,
    );
  }
  if (raw.capture) captured.add(raw.capture);
  const walked = fileWalk(parsed, contract, operation, raw, at);
  const expectStatus = raw.expect?.status;
  return {
    index: (at[at.length - 1] as number) + 1,
    line: parsed.lineOf(at),
    operation,
    path: params,
    query: raw.query ?? {},
    headers: Object.fromEntries(Object.entries(raw.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    body:
      raw.rawBody !== undefined
        ? { kind: 'raw', text: raw.rawBody }
        : raw.body !== undefined
          ? { kind: 'json', value: raw.body }
          : undefined,
    auth: toAuth(raw.auth),
    expect: {
      ...raw.expect,
      status: expectStatus === undefined ? undefined : Array.isArray(expectStatus) ? expectStatus : [expectStatus],
      headers:
        raw.expect?.headers &&
        Object.fromEntries(Object.entries(raw.expect.headers).map(([k, v]) => [k.toLowerCase(), v === true ? true : String(v)])),
      ...(walked ? { effect: walked.effect } : {}),
    },
    capture: raw.capture,
    observe: raw.observe,
    repeat: typeof raw.repeat === 'number' ? { count: raw.repeat } : raw.repeat,
    ...(walked ? { walk: walked.walk } : {}),
    templated,
  };
}

/** Header names and values the client could not send would reach the report as a target's connection failure. */
function checkHeaders(parsed: ParsedScenarioFile, raw: RawStep, at: (string | number)[]): void {
  for (const [name, value] of Object.entries(raw.headers ?? {})) {
    const problem = headerNameProblem(name) ?? fieldValueProblem(String(value));
    if (problem) parsed.fail([...at, 'headers', name], problem);
  }
  const auth = raw.auth !== undefined && !AUTH_KEYWORDS.has(raw.auth) ? fieldValueProblem(raw.auth) : undefined;
  if (auth) parsed.fail([...at, 'auth'], `sent as the Authorization header, but ${auth}`);
}

/**
 * A `whenShorterThan` above the page the step asks for would fail a full page, which the contract allows to
 * leave the item for a later one. `limit` is the contract's only pagination control (seed, Endpoints).
 */
function checkPage(parsed: ParsedScenarioFile, operation: Operation, raw: RawStep, at: (string | number)[]): void {
  const shorterThan = raw.expect?.bodyIncludes?.whenShorterThan;
  if (shorterThan === undefined) return;
  const limit = raw.query?.limit ?? operation.parameters.find((p) => p.in === 'query' && p.name === 'limit')?.defaultValue;
  if (typeof limit === 'number' && shorterThan > limit) {
    parsed.fail(
      [...at, 'expect', 'bodyIncludes', 'whenShorterThan'],
      `${shorterThan} is more than the ${limit} items the step asks for: a full page would fail though the list may go on`,
    );
  }
}

/** Whether any of the step's strings holds a template; each must name a built-in or an earlier capture. */
function checkTemplates(
  parsed: ParsedScenarioFile,
  raw: RawStep,
  at: (string | number)[],
  captured: ReadonlySet<string>,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  let templated = false;
  forEachString(raw, at, (text, path) => {
    if (!text.includes('{{')) return;
    const field = String(path[at.length]);
    if (!FILLED_FIELDS.has(field)) parsed.fail(path, `templates are not filled in in ${field}: this would be used as written`);
    for (const reference of templateReferences(text)) {
      const problem = 'problem' in reference ? reference.problem : referenceProblem(reference, captured, env);
      if (problem) parsed.fail(path, problem);
    }
    templated = true;
  });
  return templated;
}

function referenceProblem(
  reference: Exclude<TemplateReference, { problem: string }>,
  captured: ReadonlySet<string>,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const { name, keys } = reference;
  // Checked at load, so a variable missing in CI is a scenario error naming the line, not a step the target fails.
  if (name === ENV) {
    if (keys.length !== 1) return `{{env.NAME}} takes exactly one name (got {{${[name, ...keys].join('.')}}})`;
    return env[keys[0] as string] === undefined
      ? `{{env.${keys[0]}}}: the environment variable ${keys[0]} is not set`
      : undefined;
  }
  const builtInKey = BUILT_IN_CAPTURES.get(name);
  if (builtInKey !== undefined) {
    return keys.length === 1 && keys[0] === builtInKey ? undefined : `the built-in '${name}' has only {{${name}.${builtInKey}}}`;
  }
  if (!captured.has(name)) {
    const hint = suggestName(name, [...captured, ...BUILT_IN_CAPTURES.keys()]);
    return `{{${name}...}} refers to nothing captured by an earlier step${hint ? ` (did you mean ${hint}?)` : ''}`;
  }
  const [field] = keys;
  if (field !== undefined && !CAPTURE_FIELDS.has(field)) {
    return `{{${[name, ...keys].join('.')}}}: a capture holds status, headers and body (did you mean {{${name}.body.${keys.join('.')}}}?)`;
  }
  return undefined;
}

function forEachString(value: unknown, path: (string | number)[], visit: (text: string, path: (string | number)[]) => void) {
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) forEachString(value[i], [...path, i], visit);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) forEachString(item, [...path, key], visit);
  }
}

/** A name as it can sit in a case id: lower-case words joined by '-'. */
export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function toAuth(text: string | undefined): AuthChoice {
  if (text === undefined) return 'default';
  return AUTH_KEYWORDS.has(text) ? (text as AuthChoice) : { raw: text };
}

function missingOperations(parsed: ParsedScenarioFile, contract: Contract): string[] | undefined {
  const missing = new Set<string>();
  for (const raw of parsed.value.scenarios) {
    for (const step of raw.steps) {
      const [method, path] = step.operation.trim().split(/\s+/);
      if (contract.byId.has(step.operation)) continue;
      if (path?.startsWith('/') && contract.findOperation((method as string).toUpperCase(), path).kind === 'found') continue;
      missing.add(step.operation);
    }
  }
  return missing.size === 0 ? undefined : [...missing];
}

function resolveOperation(
  parsed: ParsedScenarioFile,
  contract: Contract,
  text: string,
  at: (string | number)[],
): { operation: Operation; pathDefaults: Record<string, string> } {
  const byId = contract.byId.get(text);
  if (byId) return { operation: byId, pathDefaults: {} };
  const [method, path, extra] = text.trim().split(/\s+/);
  if (path?.startsWith('/') && extra === undefined) {
    const upper = (method as string).toUpperCase();
    const exact = contract.operations.find((op) => op.method === upper && op.path === path);
    if (exact) return { operation: exact, pathDefaults: {} };
    const match = contract.findOperation(upper, path);
    if (match.kind === 'found') return { operation: match.operation, pathDefaults: { ...match.pathParams } };
    parsed.fail(at, `the contract has no operation ${upper} ${path}`);
  }
  const hint = suggestName(text, contract.byId.keys());
  return parsed.fail(at, `unknown operation '${text}'${hint ? ` (did you mean ${hint}?)` : ''}`);
}
