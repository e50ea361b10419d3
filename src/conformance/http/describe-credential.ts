import type { SentRequest } from './exchange.js';

/** What a request carried where its credential goes, in words for findings, as recorded (never the key). */
export interface CredentialDescription {
  /** `Authorization`, `X-API-Key`, `api_key query parameter`, `session cookie`: what `sent no …` names. */
  readonly label: string;
  /** `an Authorization header`, `an X-API-Key header`, `the api_key query parameter`, `the session cookie`. */
  readonly missing: string;
  /** `Authorization: Basic <key>`, `X-API-Key: ***`, `?api_key=<key minus its last character>`; undefined: none sent. */
  readonly carried: string | undefined;
  readonly runKey: boolean;
}

export function describeCredential(request: SentRequest): CredentialDescription {
  const credential = request.credential;
  const placement = credential?.placement;
  const runKey = credential?.runKey === true;
  if (placement?.scheme !== 'apiKey') {
    const authorization = request.headers.authorization;
    return {
      label: 'Authorization',
      missing: 'an Authorization header',
      carried: authorization === undefined ? undefined : `Authorization: ${authorization}`,
      runKey,
    };
  }
  const { name } = placement;
  const shown = credential?.shown;
  if (placement.in === 'header') {
    const value = request.headers[name.toLowerCase()];
    // An empty value would read as `X-API-Key: ` and look cut off.
    const carried = value === undefined ? undefined : value === '' ? `an empty ${name} header` : `${name}: ${value}`;
    // X- and the vowels are said with a vowel first: an X-API-Key header, a Token header.
    return { label: name, missing: `${/^[aeiox]/i.test(name) ? 'an' : 'a'} ${name} header`, carried, runKey };
  }
  if (placement.in === 'query') {
    const label = `${name} query parameter`;
    return { label, missing: `the ${label}`, carried: shown === undefined ? undefined : `?${name}=${shown}`, runKey };
  }
  const label = `${name} cookie`;
  return { label, missing: `the ${label}`, carried: shown === undefined ? undefined : `Cookie: ${name}=${shown}`, runKey };
}
