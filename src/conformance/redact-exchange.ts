import type { Redactor } from '../shared/create-redactor.js';
import type { Exchange, SentRequest } from './exchange.js';
import { receivedResponse } from './received-response.js';

/**
 * An exchange is recorded raw, the run's Authorization aside: checks judge what was sent and received, and most
 * of it is never shown (a case that passes keeps its method, URL and status only). What a run hands out (a
 * finding, an observation, an exchange's URL, onExchange) goes through the run's redactor on its way out, so each
 * text is redacted when it is shown, not each time one arrives.
 */
export function redactRequest(request: SentRequest, redact: Redactor): SentRequest {
  return {
    method: request.method,
    url: redact(request.url),
    headers: redactHeaders(request.headers, redact),
    body: request.body === undefined ? undefined : redact(request.body),
  };
}

/** A header name is target text too: a target may echo the key as one. */
export function redactHeaders(headers: Readonly<Record<string, string>>, redact: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[redact(name)] = redact(headers[name] as string);
  return out;
}

export function redactExchange(exchange: Exchange, redact: Redactor): Exchange {
  const { response } = exchange;
  return {
    ...exchange,
    request: redactRequest(exchange.request, redact),
    response: response && receivedResponse(response.status, redactHeaders(response.headers, redact), redact(response.text)),
  };
}
