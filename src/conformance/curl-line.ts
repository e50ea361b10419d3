import { REDACTED_BEARER, type SentRequest } from './exchange.js';

/**
 * A shell line that sends the same request. The run's key is never in it: a redacted Authorization header
 * becomes $PETSTORE_API_KEY, which the reader exports, so the line still reproduces the request.
 */
export function curlLine(request: SentRequest): string {
  const parts = ['curl -sS -i', request.method === 'GET' ? '' : `-X ${request.method}`, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' && value === REDACTED_BEARER) parts.push('-H "Authorization: Bearer $PETSTORE_API_KEY"');
    else parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (request.body !== undefined) parts.push(`--data-raw ${shellQuote(request.body)}`);
  return parts.filter(Boolean).join(' ');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
