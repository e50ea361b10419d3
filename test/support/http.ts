import { request } from 'undici';
import { type JsonValue, parseJson } from '../../src/contract/lossless-json.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';

export interface CallOptions {
  /** 'default' sends the development key; a string is sent as the whole Authorization header; null sends none. */
  readonly auth?: 'default' | string | null;
  readonly headers?: Record<string, string>;
  /** An object is sent as JSON with Content-Type: application/json; a string or a Buffer is sent as it is. */
  readonly body?: unknown;
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed with exact integers; undefined when it is not JSON. */
  readonly json: JsonValue | undefined;
}

/** One real HTTP request over undici; `url` is the mock's base URL (with /v1) and `path` is appended. */
export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? 'default' : options.auth;
  if (auth === 'default') headers.authorization = `Bearer ${DEV_API_KEY}`;
  else if (auth !== null) headers.authorization = auth;
  let body: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await request(`${base}${path}`, { method: method as 'GET', headers, body });
  const text = await response.body.text();
  let json: JsonValue | undefined;
  try {
    json = text === '' ? undefined : parseJson(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers as Reply['headers'], text, json };
}
