import { mapLeaves } from '../../contract/map-leaves.js';
import type { Redactor } from '../../shared/create-redactor.js';
import type { HttpClient } from './create-http-client.js';
import type { Exchange, SentRequest } from './exchange.js';
import { receivedResponse } from './received-response.js';

/**
 * An exchange is recorded raw, the run's credentials aside: checks judge what was sent and received, and most of
 * it is never shown (a case that passes keeps its method, URL and status only). What a run hands out (a finding,
 * an observation, an exchange's URL, onExchange) goes through the run's redactor on its way out, so each text is
 * redacted when it is shown, not each time one arrives.
 */
export function redactRequest(request: SentRequest, redact: Redactor): SentRequest {
  return {
    method: request.method,
    url: redact(request.url),
    headers: redactHeaders(request.headers, redact),
    body: request.body === undefined ? undefined : redact(request.body),
    // Where the credential went and its masked form: no secret, what curl lines and hints read.
    ...(request.credential === undefined ? {} : { credential: request.credential }),
  };
}

/** A header name is target text too: a target may echo the key as one. */
export function redactHeaders(headers: Readonly<Record<string, string>>, redact: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[redact(name)] = redact(headers[name] as string);
  return out;
}

export function redactExchange(exchange: Exchange, redact: Redactor): Exchange {
  const { response, afterHead } = exchange;
  return {
    ...exchange,
    request: redactRequest(exchange.request, redact),
    response: response && receivedResponse(response.status, redactHeaders(response.headers, redact), redact(response.text)),
    ...(afterHead !== undefined && 'strayStart' in afterHead
      ? { afterHead: { ...afterHead, strayStart: redact(afterHead.strayStart) } }
      : {}),
  };
}

/** Every string in a value (an expectation filled in from captured answers), redacted. */
export function redactValue<T>(value: T, redact: Redactor): T {
  return mapLeaves(value, (leaf) => (typeof leaf === 'string' ? redact(leaf) : leaf)) as T;
}

/**
 * What reports show of one exchange, each part redacted when first asked for. A body is redacted whole and then
 * cut, never cut and then redacted: a cut through the key would leave a piece of it too short to be recognised.
 */
export class ShownExchange {
  #request: SentRequest | undefined;
  #headers: Record<string, string> | undefined;
  #body: string | undefined;
  #heldSecret: boolean | undefined;

  constructor(
    private readonly exchange: Exchange,
    private readonly client: Pick<HttpClient, 'redact' | 'redactPieces'>,
  ) {}

  get request(): SentRequest {
    this.#request ??= redactRequest(this.exchange.request, this.client.redact);
    return this.#request;
  }

  get headers(): Record<string, string> {
    this.#headers ??= redactHeaders(this.exchange.response?.headers ?? {}, this.client.redact);
    return this.#headers;
  }

  /** The whole body, redacted; the error's message (redacted as it was recorded) when no answer came. */
  get body(): string {
    this.#body ??= this.exchange.response
      ? this.client.redact(this.exchange.response.text)
      : (this.exchange.error?.message ?? '');
    return this.#body;
  }

  /**
   * A check's sentence about this exchange. Checks quote values by their start (500 characters of a long name),
   * which may cut the key: when the exchange held a secret anywhere, the pieces of it are blanked too.
   */
  quote(text: string): string {
    this.#heldSecret ??= this.#holdsSecret();
    return this.#heldSecret ? this.client.redactPieces(text) : this.client.redact(text);
  }

  #holdsSecret(): boolean {
    const { request, response } = this.exchange;
    const shown = this.request;
    if (shown.url !== request.url || shown.body !== request.body) return true;
    if (!sameHeaders(request.headers, shown.headers)) return true;
    return response !== undefined && (this.body !== response.text || !sameHeaders(response.headers, this.headers));
  }
}

function sameHeaders(raw: Readonly<Record<string, string>>, shown: Readonly<Record<string, string>>): boolean {
  const names = Object.keys(raw);
  return names.length === Object.keys(shown).length && names.every((name) => shown[name] === raw[name]);
}
