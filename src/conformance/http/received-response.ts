import { parseFixedJson } from '../../contract/lossless-json.js';
import { collectGarbage, LARGE_ANSWER_CHARS } from './collect-garbage.js';
import type { ReceivedResponse } from './exchange.js';
import { projectReads, type ReadTree } from '../cases/capture-reads.js';
import { bodyWithLocationId } from '../cases/location-id.js';
import type { LocationId } from '../cases/scenario.js';

/**
 * An answer whose body is parsed when a check first reads it, not when it arrives. Checks run synchronously, one
 * exchange at a time, so however many answers are in flight at once, only the one being judged is held as a
 * tree of values (a 10 MiB list is a few MiB of text and up to hundreds of MiB of objects). The tree is dropped
 * with the answer, once its step is judged.
 */
export function receivedResponse(
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
  byteOrderMark = false,
  invalidUtf8 = false,
): ReceivedResponse {
  return new LazyResponse(status, headers, text, byteOrderMark, invalidUtf8);
}

// A class, not an object literal with getters: V8 gives such literals a shape of their own each time, and an
// answer is made for every request.
class LazyResponse implements ReceivedResponse {
  #parsed: Pick<ReceivedResponse, 'json' | 'jsonError'> | undefined;

  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly text: string,
    readonly byteOrderMark: boolean,
    readonly invalidUtf8: boolean,
  ) {}

  get json() {
    this.#parsed ??= parseBody(this.text);
    return this.#parsed.json;
  }

  get jsonError() {
    this.#parsed ??= parseBody(this.text);
    return this.#parsed.jsonError;
  }
}

/**
 * What a capture keeps of an answer for later steps: only what their templates read (capture-reads.ts). A case
 * that captured a huge list to count it must not hold the list, or its text, while other cases run.
 */
export function capturedAnswer(response: ReceivedResponse, reads: ReadTree | undefined, locationId?: LocationId): unknown {
  const { status, headers, text } = response;
  const located = locationId && bodyWithLocationId(response, locationId);
  if (located) return projectReads({ status, headers, body: located }, reads);
  const bodyReads = reads === true ? true : reads?.get('body');
  if (bodyReads === undefined) return projectReads({ status, headers }, reads);
  if (bodyReads !== true || text.length < LARGE_ANSWER_CHARS)
    return projectReads({ status, headers, body: response.json }, reads);
  // A large body read whole is kept as text and parsed again each time a template reads it.
  return {
    ...(projectReads({ status, headers }, reads) as object),
    get body() {
      return parseBody(text).json;
    },
  };
}

function parseBody(text: string): Pick<ReceivedResponse, 'json' | 'jsonError'> {
  if (text === '') return { json: undefined, jsonError: undefined };
  // The previous large answer's tree is garbage by now: collected before this one is built, not after.
  if (text.length >= LARGE_ANSWER_CHARS) collectGarbage();
  try {
    return { json: parseFixedJson(text), jsonError: undefined };
  } catch (error) {
    if (error instanceof RangeError) {
      return { json: undefined, jsonError: `the body nests deeper than the runner reads (${error.message})` };
    }
    return { json: undefined, jsonError: (error as Error).message };
  }
}
