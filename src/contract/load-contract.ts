import { derivedOperationId } from './derived-operation-id.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AppError, isAppError } from './app-error.js';
import {
  compileSchema,
  contractSchema,
  createSchemaCompiler,
  type SchemaCompiler,
  type SchemaDialect,
  type Validator,
} from './compile-schema.js';
import { type Bundled, linkedSchema, selfContainedSchema } from './bundled-refs.js';
import { type Direction, directedSchema, effectiveSchema } from './effective-schema.js';
import { createOperationFinder, type OperationFinder } from './find-operation.js';
import { mediaTypeOf } from './find-response.js';
import { readSecurity, type SecuritySchemeModel } from './key-placement.js';
import type { JsonSchema, MediaSpec, Operation, ParameterLocation, ParameterSpec, ResponseSpec } from './operation.js';
import { packageRoot } from './package-root.js';
import { parseYaml } from './parse-yaml.js';
import { prismComponentSchemas, prismOperations, prismSchema } from './prism-operations.js';
import { resolveDocument } from './resolve-document.js';

export interface Contract {
  readonly file: string;
  readonly title: string;
  readonly version: string;
  readonly operations: readonly Operation[];
  readonly byId: ReadonlyMap<string, Operation>;
  readonly findOperation: OperationFinder;
  /** components.schemas, compiled: Pet validates a fixture, Error an error body, by name. */
  readonly schemas: ReadonlyMap<string, Validator>;
  /** The path part of each server URL, variables at their defaults (`/v1`): where a target serves the paths. */
  readonly basePaths: readonly string[];
  /** The validated, dereferenced document, for Prism. */
  readonly document: object;
}

export function defaultContractPath(): string {
  return resolve(packageRoot(), 'openapi.yaml');
}

const loaded = new Map<string, Promise<Contract>>();

/**
 * Loads, validates and compiles a contract once per file per process: the mock and the runner, and every
 * mock a test suite starts, share the compiled result. Errors are AppError('contract_invalid').
 */
export function loadContract(file: string = defaultContractPath()): Promise<Contract> {
  const path = resolve(file);
  let contract = loaded.get(path);
  if (!contract) {
    contract = compileContract(path);
    loaded.set(path, contract);
    contract.catch(() => loaded.delete(path));
  }
  return contract;
}

/** Called between two steps of a compilation: what a caller off the start-up path awaits to let requests through. */
export type Pause = () => Promise<void>;

/** How a caller off the start-up path follows a compilation (see compileContract). */
export interface CompileSteps {
  /** Reads the document and Prism's model of it (readContractSource by default; a reload does it in a worker). */
  readonly read?: (file: string) => Promise<ContractSource>;
  readonly pause?: Pause;
  /** Once the document is read and valid, before its operations are compiled (the long part). */
  readonly compiling?: (operations: number) => void;
}

/**
 * Loads, validates and compiles a contract anew, outside loadContract's cache: a contract reloaded under --watch
 * replaces the previous one, which nothing keeps. With `pause`, the compilation awaits it between operations and
 * between schemas (a few milliseconds each), so that the mock keeps answering while a large contract compiles.
 */
export async function compileContract(
  file: string,
  { read = readContractSource, pause, compiling }: CompileSteps = {},
): Promise<Contract> {
  const { document, modelled } = await read(file);
  const declared = String((document as { openapi?: unknown }).openapi);
  const info = (document as { info: { title: string; version: string } }).info;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; 3.0's are its own dialect, which Prism's model turns into draft 7.
  const dialect: SchemaDialect = declared.startsWith('3.0') ? 'draft-07' : '2020-12';
  const compiler = createSchemaCompiler(dialect);
  compiling?.(modelled.length);
  const operations: Operation[] = [];
  // A contract that says nothing of security leaves it open to the tools: what the runner sent before, it sends.
  const declares = (document as { security?: unknown }).security !== undefined;
  const taken = new Set(modelled.map((op) => (op as PrismOperation).iid).filter((id): id is string => Boolean(id)));
  for (const op of modelled) {
    await pause?.();
    const prism = op as PrismOperation;
    let operationId = prism.iid;
    if (!operationId) {
      operationId = derivedOperationId(prism.method, prism.path, taken);
      taken.add(operationId);
    }
    const schemas = { bundled: translated(document, dialect, prism.__bundled__), dialect, compiler };
    operations.push(toOperation(file, prism, operationId, schemas, declares));
  }
  const byId = new Map<string, Operation>();
  for (const operation of operations) {
    if (byId.has(operation.operationId)) {
      throw new AppError('contract_invalid', `Failed to load ${file}: operationId '${operation.operationId}' is used twice`);
    }
    byId.set(operation.operationId, operation);
  }
  const schemas = new Map<string, Validator>();
  for (const [name, { schema, bundled }] of prismComponentSchemas(document)) {
    await pause?.();
    try {
      // A named schema validates what the service holds and answers (a fixture): the response direction.
      const read = { bundled: translated(document, dialect, bundled), dialect, compiler };
      schemas.set(name, validatorOf(translated(document, dialect, { schema }).schema, 'response', name, read));
    } catch (error) {
      throw isAppError(error) ? new AppError('contract_invalid', `Failed to load ${file}: ${error.message}`) : error;
    }
  }
  return {
    file,
    title: info.title,
    version: info.version,
    operations,
    byId,
    findOperation: createOperationFinder(operations),
    schemas,
    basePaths: basePathsOf(document),
    document,
  };
}

/** A contract as read, before its schemas are compiled: plain data, which can cross from a worker thread. */
export interface ContractSource {
  /** The validated, dereferenced document. */
  readonly document: object;
  /** Prism's model of its operations (see prismOperations). */
  readonly modelled: readonly unknown[];
}

export async function readContractSource(file: string): Promise<ContractSource> {
  const document = await readContractDocument(file);
  return { document, modelled: prismOperations(document) };
}

/** The contract file read, parsed, checked to be OpenAPI 3.x, validated and dereferenced (see resolveDocument). */
async function readContractDocument(file: string): Promise<object> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new AppError('contract_invalid', `Failed to read ${file}: ${error.code ?? error.message}`);
  });
  const parsed = parseYaml(file, text, 'contract_invalid').value;
  const declared = (parsed as { openapi?: unknown } | null)?.openapi;
  if (typeof declared !== 'string' || !declared.startsWith('3.')) {
    throw new AppError(
      'contract_invalid',
      `Failed to load ${file}: not an OpenAPI 3.x document (it needs openapi: 3.0.3 or another 3.x)`,
    );
  }
  return resolveDocument(file, parsed as object);
}

interface ServerObject {
  url?: string;
  variables?: Record<string, { default?: string }>;
}

function basePathsOf(document: object): string[] {
  const servers = (document as { servers?: ServerObject[] }).servers ?? [];
  const paths = servers.map((server) => {
    const url = (server.url ?? '').replace(/\{([^{}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
    try {
      return new URL(url, 'http://base.invalid').pathname.replace(/\/+$/, '');
    } catch {
      return '';
    }
  });
  return [...new Set(paths.filter(Boolean))];
}

// The subset of Prism's IHttpOperation read here (its types are loose about extensions and schemas).
interface PrismSchemaHolder {
  schema?: object;
}
interface PrismParameter extends PrismSchemaHolder {
  name: string;
  required?: boolean;
  examples?: { key: string; value?: unknown }[];
}
interface PrismContent extends PrismSchemaHolder {
  mediaType: string;
  examples?: { key: string; value?: unknown }[];
}
interface PrismOperation {
  iid?: string;
  method: string;
  path: string;
  summary?: string;
  deprecated?: boolean;
  tags?: { name: string }[];
  extensions?: Record<string, unknown>;
  security?: SecuritySchemeModel[][];
  securityDeclarationType?: string;
  request?: {
    query?: PrismParameter[];
    path?: PrismParameter[];
    headers?: PrismParameter[];
    cookie?: PrismParameter[];
    body?: { required?: boolean; contents?: PrismContent[] };
  };
  responses: { code: string; description?: string; headers?: PrismParameter[]; contents?: PrismContent[] }[];
  __bundled__?: Bundled;
}

function toOperation(
  file: string,
  op: PrismOperation,
  operationId: string,
  schemas: OperationSchemas,
  declares: boolean,
): Operation {
  try {
    const security = readSecurity(op.security ?? [], declares || op.securityDeclarationType !== 'inheritedFromService');
    return { ...buildOperation(op, operationId, schemas), ...security };
  } catch (error) {
    if (!isAppError(error) || error.message.startsWith('Failed')) throw error;
    throw new AppError('contract_invalid', `Failed to load ${file}: ${op.method.toUpperCase()} ${op.path}: ${error.message}`);
  }
}

function buildOperation(op: PrismOperation, operationId: string, schemas: OperationSchemas): Omit<Operation, 'auth' | 'key'> {
  const method = op.method.toUpperCase();
  const parameters: ParameterSpec[] = [
    ...(op.request?.path ?? []).map((p) => toParameter(p, 'path', schemas)),
    ...(op.request?.query ?? []).map((p) => toParameter(p, 'query', schemas)),
    ...(op.request?.headers ?? []).map((p) => toParameter(p, 'header', schemas)),
    ...(op.request?.cookie ?? []).map((p) => toParameter(p, 'cookie', schemas)),
  ];
  const body = op.request?.body;
  return {
    operationId,
    method,
    path: op.path,
    summary: op.summary,
    tags: (op.tags ?? []).map((t) => t.name),
    deprecated: op.deprecated === true,
    extensions: op.extensions ?? {},
    parameters,
    requestBody: body?.contents?.length
      ? { required: body.required === true, contents: body.contents.map((c) => toMedia(c, 'request', schemas)) }
      : undefined,
    responses: op.responses.map(
      (r): ResponseSpec => ({
        code: r.code.toUpperCase() === 'DEFAULT' ? 'default' : r.code.toUpperCase(),
        description: r.description,
        headers: (r.headers ?? []).map((h) => ({
          name: h.name.toLowerCase(),
          required: h.required === true,
          schema: viewOf(contractSchema(h.schema ?? {}), 'response', schemas),
          example: h.examples?.[0]?.value,
        })),
        contents: (r.contents ?? []).map((c) => toMedia(c, 'response', schemas)),
      }),
    ),
    prismOperation: op,
  };
}

// What an operation's schemas are read with: the bundle its recursive schemas refer into (see bundled-refs.ts).
interface OperationSchemas {
  readonly bundled: Bundled | undefined;
  readonly dialect: SchemaDialect;
  readonly compiler: SchemaCompiler;
}

/**
 * Schemas as Prism's model reads an operation's: a 3.0 schema's own keywords in draft 7 (`nullable`, a boolean
 * `exclusiveMinimum`). The model translates what it inlines, not what it bundles: the bundle is translated here.
 */
function translated<T extends Record<string, unknown> | undefined>(document: object, dialect: SchemaDialect, schemas: T): T {
  if (dialect !== 'draft-07' || schemas === undefined) return schemas;
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, contractSchema(prismSchema(document, schema))]),
  ) as T;
}

function viewOf(raw: unknown, direction: Direction, { bundled }: OperationSchemas): JsonSchema {
  return effectiveSchema(linkedSchema(raw, bundled), direction);
}

function validatorOf(raw: unknown, direction: Direction | undefined, root: string, schemas: OperationSchemas): Validator {
  const { bundled, dialect, compiler } = schemas;
  const each = (schema: unknown) => (direction === undefined ? schema : directedSchema(schema, direction));
  return compileSchema(selfContainedSchema(raw, bundled, dialect, each) as object, root, dialect, compiler);
}

function toParameter(p: PrismParameter, location: ParameterLocation, schemas: OperationSchemas): ParameterSpec {
  const raw = contractSchema(p.schema ?? {});
  const view = viewOf(raw, 'request', schemas);
  // A parameter's value is text: the null that a nullable enum lists cannot be sent in it, only left out.
  const schema = view.enum?.includes(null) ? { ...view, enum: view.enum.filter((value) => value !== null) } : view;
  const root = `${location}.${p.name}`;
  return {
    name: location === 'header' ? p.name.toLowerCase() : p.name,
    in: location,
    required: location === 'path' || p.required === true,
    type: schema.type,
    defaultValue: schema.default,
    schema,
    validate: validatorOf(raw, undefined, root, schemas),
  };
}

function toMedia(content: PrismContent, direction: Direction, schemas: OperationSchemas): MediaSpec {
  const raw = content.schema && contractSchema(content.schema);
  return {
    // A content key may carry parameters (`application/json; charset=utf-8`): every match is on the media type.
    mediaType: mediaTypeOf(content.mediaType) ?? content.mediaType.toLowerCase(),
    schema: raw === undefined ? undefined : viewOf(raw, direction, schemas),
    example: content.examples?.[0]?.value,
    validate: raw === undefined ? undefined : validatorOf(raw, direction, 'body', schemas),
  };
}
