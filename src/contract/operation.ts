import type { Validator } from './compile-schema.js';
import type { AuthKind, KeyPlacement } from './key-placement.js';

export type ParameterLocation = 'query' | 'path' | 'header' | 'cookie';

export interface ParameterSpec {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  /** The JSON type the raw text is read as before validation ('integer', 'string', 'array', ...). */
  readonly type: string | undefined;
  readonly defaultValue: unknown;
  /** The parameter's schema as the contract states it (dereferenced): what a case generator reads. */
  readonly schema: JsonSchema;
  readonly validate: Validator;
}

/** A dereferenced OpenAPI 3.0 schema object, read-only: types, formats, bounds, enums, required sets. */
export interface JsonSchema {
  readonly type?: string;
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  /** A number in JSON Schema draft 7, which Prism's model uses; a flag in OpenAPI 3.0. */
  readonly exclusiveMinimum?: number | boolean;
  readonly exclusiveMaximum?: number | boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly default?: unknown;
  readonly example?: unknown;
  readonly examples?: readonly unknown[];
  readonly nullable?: boolean;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  /** OpenAPI 3.1 (JSON Schema 2020-12): the schemas of an array's first items, in order. */
  readonly prefixItems?: readonly JsonSchema[];
  /** Alternatives, as the contract gives them (not merged: a sample takes the first that is not null). */
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly multipleOf?: number;
  readonly minProperties?: number;
  /** OpenAPI 3.1: the one value allowed. */
  readonly const?: unknown;
  readonly description?: string;
  /** In a response's view (effectiveSchema), the properties left out because the contract marks them writeOnly. */
  readonly writeOnlyProperties?: readonly string[];
}

export interface MediaSpec {
  /** Lower-case media type without its parameters, e.g. application/json. */
  readonly mediaType: string;
  /** The body's schema as the contract states it (dereferenced), when it has one. */
  readonly schema: JsonSchema | undefined;
  /** The contract's example of this body, when it gives one. */
  readonly example: unknown;
  readonly validate: Validator | undefined;
}

export interface ResponseSpec {
  /** As written in the contract: '200', '2XX' or 'default'. */
  readonly code: string;
  readonly description: string | undefined;
  /** Lower-case names; the schema and example as the contract gives them (what a server that sends one sends). */
  readonly headers: readonly {
    readonly name: string;
    readonly required: boolean;
    readonly schema?: JsonSchema;
    readonly example?: unknown;
  }[];
  readonly contents: readonly MediaSpec[];
}

export interface Operation {
  readonly operationId: string;
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Path template relative to the base address, e.g. /pets/{petId}. */
  readonly path: string;
  readonly summary: string | undefined;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly auth: AuthKind;
  /** Where the key goes, when `auth` is 'key' (key-placement.ts): what the runner sends and the mock checks. */
  readonly key: KeyPlacement | undefined;
  /**
   * The other places a key is taken, one per alternative of `security` that is a single scheme (an API key header
   * OR a bearer token): a key sent there is no wrong key.
   */
  readonly otherKeys?: readonly KeyPlacement[];
  readonly parameters: readonly ParameterSpec[];
  readonly requestBody: { readonly required: boolean; readonly contents: readonly MediaSpec[] } | undefined;
  readonly responses: readonly ResponseSpec[];
  /** Prism's own description of the operation, for the parts of the mock that hand requests to Prism. */
  readonly prismOperation: unknown;
}
