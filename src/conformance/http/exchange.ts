import type { ReceivedResponse } from '../../contract/judge/received-response.js';
import type { KeyPlacement } from '../../contract/key-placement.js';

export type { ReceivedResponse };

/** How the run's own key is recorded: every report, console line and curl line shows this instead. */
export const REDACTED_BEARER = 'Bearer ***';

/** A request as sent, with the key already redacted: this is what reports and curl lines show. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Where the request carried its credential, by the operation's security scheme, when the runner placed one. */
  readonly credential?: SentCredential;
}

/** A credential as a request carried it, recorded without the key. */
export interface SentCredential {
  /** Where it goes (key-placement.ts); Authorization: Bearer for an operation whose schemes the runner cannot place. */
  readonly placement: KeyPlacement;
  /**
   * As recorded where it stands: `Bearer ***` or `***` for the run's key, a description of a key made from it
   * (`Bearer <key minus its last character>`), a random key as sent; undefined when none was sent.
   */
  readonly shown: string | undefined;
  /** The run's own key: what curl lines send as $PETSTORE_API_KEY and the key-refused hint counts. */
  readonly runKey: boolean;
}

/**
 * No usable answer: the connection failed (after retries, for idempotent requests), the answer took longer than
 * --timeout, its body was larger than --max-response-bytes (read no further, the connection dropped), or its
 * Content-Encoding could not be undone.
 */
export interface TransportError {
  readonly kind: 'timeout' | 'connection' | 'too-large' | 'undecodable';
  readonly message: string;
  /**
   * The status line's code, when one arrived before the body proved unusable (too large, undecodable, cut short, or
   * framed against HTTP/1.1): the target did answer, though there is no response to judge.
   */
  readonly status?: number;
  /** The system's or TLS's code for a connection error (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT): what the run branches on. */
  readonly code?: string;
  /** A connection error on a kept-alive connection the target closed as the request went out (send-once.ts). */
  readonly idleClose?: boolean;
}

/**
 * What came after the header block of an answer read on a socket of its own (OutgoingRequest.raw): for an answer
 * that can have no content (to HEAD; a 1xx, 204 or 304), the bytes that followed it, which should be none; else why
 * that could not be seen (the answer may carry content, or went through a proxy that frames answers anew).
 */
export type AfterHead = { readonly strayBytes: number; readonly strayStart: string } | { readonly unread: string };

export interface Exchange {
  readonly request: SentRequest;
  readonly response: ReceivedResponse | undefined;
  readonly error: TransportError | undefined;
  /** Set for a request sent raw (OutgoingRequest.raw) that was answered. */
  readonly afterHead?: AfterHead;
  /** From sending the request to the last byte of the body, less any wait behind the run's own requests. */
  readonly elapsedMs: number;
}
