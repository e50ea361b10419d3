import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { AppError, isAppError } from './app-error.js';
import { compileSchema, contractSchema, type Validator } from './compile-schema.js';
import { createOperationFinder, type OperationFinder } from './find-operation.js';
import type { AuthKind, JsonSchema, MediaSpec, Operation, ParameterLocation, ParameterSpec, ResponseSpec } from './operation.js';
import { packageRoot } from './package-root.js';
import { parseYaml } from './parse-yaml.js';
import { prismOperations } from './prism-operations.js';

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

async function compileContract(file: string): Promise<Contract> {
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
  let document: object;
  try {
    // external: false keeps loading offline: a contract that points at a remote $ref is rejected, not fetched.
    document = (await SwaggerParser.validate(parsed as never, { resolve: { external: false } })) as object;
  } catch (error) {
    // swagger-parser names an API it was handed as an object "[object Object]".
    const message = (error as Error).message.replaceAll('[object Object]', file);
    throw new AppError('contract_invalid', `Failed to load ${file}: ${message}`);
  }
  const info = (document as { info: { title: string; version: string }; openapi?: string }).info;
  const operations = prismOperations(document).map((op) => toOperation(file, op as PrismOperation));
  const byId = new Map<string, Operation>();
  for (const operation of operations) {
    if (byId.has(operation.operationId)) {
      throw new AppError('contract_invalid', `Failed to load ${file}: operationId '${operation.operationId}' is used twice`);
    }
    byId.set(operation.operationId, operation);
  }
  const components = (document as { components?: { schemas?: Record<string, object> } }).components?.schemas ?? {};
  const schemas = new Map(
    Object.entries(components).map(([name, schema]) => {
      try {
        return [name, compileSchema(schema, name)] as const;
      } catch (error) {
        throw isAppError(error) ? new AppError('contract_invalid', `Failed to load ${file}: ${error.message}`) : error;
      }
    }),
  );
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
  security?: { type: string; scheme?: string }[][];
  securityDeclarationType?: string;
  request?: {
    query?: PrismParameter[];
    path?: PrismParameter[];
    headers?: PrismParameter[];
    body?: { required?: boolean; contents?: PrismContent[] };
  };
  responses: { code: string; description?: string; headers?: PrismParameter[]; contents?: PrismContent[] }[];
}

function toOperation(file: string, op: PrismOperation): Operation {
  try {
    return buildOperation(file, op);
  } catch (error) {
    if (!isAppError(error) || error.message.startsWith('Failed')) throw error;
    throw new AppError('contract_invalid', `Failed to load ${file}: ${op.method.toUpperCase()} ${op.path}: ${error.message}`);
  }
}

function buildOperation(file: string, op: PrismOperation): Operation {
  const method = op.method.toUpperCase();
  if (!op.iid) throw new AppError('contract_invalid', `Failed to load ${file}: ${method} ${op.path} has no operationId`);
  const operationId = op.iid;
  const parameters: ParameterSpec[] = [
    ...(op.request?.path ?? []).map((p) => toParameter(p, 'path')),
    ...(op.request?.query ?? []).map((p) => toParameter(p, 'query')),
    ...(op.request?.headers ?? []).map((p) => toParameter(p, 'header')),
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
    auth: authKind(op.security ?? []),
    parameters,
    requestBody: body?.contents?.length
      ? { required: body.required === true, contents: body.contents.map((c) => toMedia(c, 'body')) }
      : undefined,
    responses: op.responses.map(
      (r): ResponseSpec => ({
        code: r.code.toUpperCase() === 'DEFAULT' ? 'default' : r.code.toUpperCase(),
        description: r.description,
        headers: (r.headers ?? []).map((h) => ({ name: h.name.toLowerCase(), required: h.required === true })),
        contents: (r.contents ?? []).map((c) => toMedia(c, 'body')),
      }),
    ),
    prismOperation: op,
  };
}

function toParameter(p: PrismParameter, location: ParameterLocation): ParameterSpec {
  const schema = (p.schema ?? {}) as { type?: unknown; default?: unknown };
  const root = `${location}.${p.name}`;
  return {
    name: location === 'header' ? p.name.toLowerCase() : p.name,
    in: location,
    required: location === 'path' || p.required === true,
    type: typeof schema.type === 'string' ? schema.type : undefined,
    defaultValue: schema.default,
    schema: contractSchema(schema) as JsonSchema,
    validate: compileSchema(schema, root),
  };
}

function toMedia(content: PrismContent, root: string): MediaSpec {
  return {
    mediaType: content.mediaType.toLowerCase(),
    schema: content.schema && (contractSchema(content.schema) as JsonSchema),
    example: content.examples?.[0]?.value,
    validate: content.schema ? compileSchema(content.schema, root) : undefined,
  };
}

// OpenAPI: security is a list of alternatives; an empty alternative means "no auth needed".
function authKind(alternatives: readonly (readonly { type: string; scheme?: string }[])[]): AuthKind {
  if (alternatives.length === 0 || alternatives.some((all) => all.length === 0)) return 'none';
  const bearerOnly = alternatives.some((all) => all.every((s) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer'));
  return bearerOnly ? 'bearer' : 'other';
}
