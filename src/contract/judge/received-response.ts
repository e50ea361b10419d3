import type { JsonValue } from '../lossless-json.js';

/** An answer as received, with its body read: what the judgements of src/contract/judge/ hold to the contract. */
export interface ReceivedResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body began with a byte order mark, which `text` leaves out (RFC 8259 §8.1: a sender must not add one). */
  readonly byteOrderMark?: boolean;
  /** Some bytes of the body were not UTF-8, and `text` shows each as U+FFFD (RFC 8259 §8.1: JSON text is UTF-8). */
  readonly invalidUtf8?: boolean;
  /** The body parsed with exact integers (int64 beyond 2^53 are bigint); undefined when empty or not JSON. */
  readonly json: JsonValue | undefined;
  /** Why the body is not JSON, when it is not empty and does not parse. */
  readonly jsonError: string | undefined;
}
