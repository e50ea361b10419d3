import { maskUrlCredentials } from '../../shared/mask-credentials.js';
import { REDACTED_BEARER, type SentRequest } from '../http/exchange.js';
import { proxyFor } from '../http/proxy-for.js';

/**
 * A shell line that sends the same request. The run's key is never in it: a redacted Authorization header
 * becomes $PETSTORE_API_KEY, which the reader exports, so the line still reproduces the request. `transport`
 * holds the connection options the run used (curlTransport), so the line reaches the same server the same way.
 */
export function curlLine(request: SentRequest, transport: readonly string[] = []): string {
  // curl -X HEAD would wait for a body that never comes: -I is curl's own HEAD.
  const method = request.method === 'GET' ? '' : request.method === 'HEAD' ? '-I' : `-X ${request.method}`;
  const key = request.credential?.runKey === true ? request.credential.placement : undefined;
  const query = key?.scheme === 'apiKey' && key.in === 'query' ? keyInQuery(request.url, key.name) : undefined;
  const parts = ['curl -sS -i', ...transport, method, query ?? shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' && value === REDACTED_BEARER) parts.push('-H "Authorization: Bearer $PETSTORE_API_KEY"');
    // curl -u user:password sends Authorization: Basic with their base64 (RFC 7617 §2).
    else if (key?.scheme === 'basic' && name === 'authorization') parts.push('-u "$PETSTORE_API_KEY"');
    else if (key?.scheme === 'apiKey' && key.in === 'header' && name === key.name.toLowerCase()) {
      parts.push(`-H ${shellQuote(`${key.name}: `)}"$PETSTORE_API_KEY"`);
    } else if (key?.scheme === 'apiKey' && key.in === 'cookie' && name === 'cookie') {
      parts.push(`-b ${shellQuote(`${key.name}=`)}"$PETSTORE_API_KEY"`);
    } else parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (request.body !== undefined) parts.push(`--data-raw ${shellQuote(request.body)}`);
  return parts.filter(Boolean).join(' ');
}

// The recorded URL ends with `name=***` (create-http-client.ts): the reader's key goes in its place.
function keyInQuery(url: string, name: string): string | undefined {
  const masked = `${new URLSearchParams([[name, '']])}***`;
  return url.endsWith(masked) ? `${shellQuote(url.slice(0, -3))}"$PETSTORE_API_KEY"` : undefined;
}

export interface CurlTransport {
  readonly target: string;
  /** --ca: the file, as the user named it. */
  readonly caFile?: string | undefined;
  readonly insecure?: boolean | undefined;
  /** Where HTTP_PROXY, HTTPS_PROXY and NO_PROXY are read, as the run's dispatcher reads them (create-dispatcher.ts). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * The curl options that match the run's connections: an HTTPS target verified with --ca needs `--cacert`, one
 * reached with --insecure needs `-k`, and a target the run reached through a proxy is reached through it again.
 * A proxy URL's password is masked (the reader puts their own back): a curl line is shown in every report.
 */
export function curlTransport(options: CurlTransport): string[] {
  const url = new URL(options.target);
  const https = url.protocol === 'https:';
  const proxy = proxyFor(url, options.env);
  return [
    ...(https && options.caFile !== undefined ? [`--cacert ${shellQuote(options.caFile)}`] : []),
    ...(https && options.insecure === true ? ['-k'] : []),
    ...(proxy === undefined ? [] : [`-x ${shellQuote(maskUrlCredentials(proxy))}`]),
  ];
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
