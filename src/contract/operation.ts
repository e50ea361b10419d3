import type { Validator } from './compile-schema.js';

export type ParameterLocation = 'query' | 'path' | 'header';

export interface ParameterSpec {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  /** The JSON type the raw text is read as before validation ('integer', 'string', 'array', ...). */
  readonly type: string | undefined;
  readonly defaultValue: unknown;
  readonly validate: Validator;
}

export interface MediaSpec {
  /** Lower-case media type, e.g. application/json. */
  readonly mediaType: string;
  readonly validate: Validator | undefined;
}

export interface ResponseSpec {
  /** As written in the contract: '200', '2XX' or 'default'. */
  readonly code: string;
  readonly description: string | undefined;
  readonly headers: readonly { readonly name: string; readonly required: boolean }[];
  readonly contents: readonly MediaSpec[];
}

/** How an operation is protected: the mock and the runner only enforce HTTP bearer. */
export type AuthKind = 'none' | 'bearer' | 'other';

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
  readonly parameters: readonly ParameterSpec[];
  readonly requestBody: { readonly required: boolean; readonly contents: readonly MediaSpec[] } | undefined;
  readonly responses: readonly ResponseSpec[];
  /** Prism's own description of the operation, for the parts of the mock that hand requests to Prism. */
  readonly prismOperation: unknown;
}
