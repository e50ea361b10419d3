import { largestPageQuery } from '../../../../contract/list-parameters.js';
import { findResponse } from '../../../../contract/find-response.js';
import { type KeyPlacement, placementWhere } from '../../../../contract/key-placement.js';
import type { Operation } from '../../../../contract/operation.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import { namingField } from '../../../../contract/resources/resource-roles.js';
import { refusedMark } from '../../resource-marks.js';
import type { AuthChoice, Scenario } from '../../scenario.js';
import type { CaseKind, GenerateContext } from '../case-kind.js';
import { successStatuses } from '../expected-statuses.js';
import { markedList } from '../marked-list.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { rareFilter } from '../rare-filter.js';
import { validRequest } from '../valid-request.js';
import { invalidVariants } from './parameters.js';

interface Variant {
  readonly id: string;
  readonly what: string;
  /** The schemes it is a case for; every scheme when left out. */
  readonly schemes?: readonly KeyPlacement['scheme'][];
  /** Where the variant puts the key instead, when that is a place of its own an alternative scheme may take. */
  readonly elsewhere?: (placement: KeyPlacement) => boolean;
  /** undefined when the run's key gives no such variant (a key without letters has no other case). */
  readonly auth: (context: GenerateContext) => AuthChoice | undefined;
}

const fromKey = (shown: string, make: (key: string) => string): AuthChoice => ({ fromKey: make, shown });
const alter = (shown: string, make: (key: string) => string): AuthChoice => ({ alter: make, shown });
// Another character in any letter case, so a server that compares keys ignoring case still sees a wrong key.
const otherThan = (c: string | undefined) => (c?.toLowerCase() === 'x' ? 'y' : 'x');
const swapCase = (key: string) => [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/**
 * What a request without valid credentials must get. Seed, Authentication: 401 where the operation documents it. An
 * operation that documents no 401 (another contract, or one written tersely) leaves the refusal's status to the
 * server: any 4XX, observed, never a finding for its status; serving it is still auth-enforced's critical finding.
 */
function refusal(operation: Operation): Pick<StepSpec, 'expect' | 'observe'> {
  if (findResponse(operation, 401) !== undefined) return { expect: { status: [401] } };
  return {
    expect: { status: ['4XX'] },
    observe: `the status ${operation.operationId} refuses credentials with: it documents no 401`,
  };
}

// `no Authorization header`, `no X-API-Key header`, `no api_key query parameter`, `no session cookie`.
const noKey = (key: KeyPlacement) => `no ${placementWhere(key).replace(/^the /, '')}`;
// A key that is not in a header of its own has none to leave out.
const noKeyId = (key: KeyPlacement) => (key.scheme === 'apiKey' && key.in !== 'header' ? 'no-key' : 'no-header');

// An apiKey scheme whose header is Authorization takes the bare key there (Django REST framework's `Token <key>`, as
// a whole, is one).
const inAuthorization = (placement: KeyPlacement) =>
  placement.scheme === 'apiKey' && placement.in === 'header' && placement.name.toLowerCase() === 'authorization';

// Seed, Authentication: a missing or invalid key, or a header not of the form `Bearer <API_KEY>`, gets 401. The
// key is altered where the operation's scheme puts it (place-credential.ts): `Bearer <key>x`, `X-API-Key: <key>x`.
const VARIANTS: readonly Variant[] = [
  {
    id: 'basic-scheme',
    what: 'the key under the Basic scheme',
    schemes: ['bearer'],
    elsewhere: (placement) => placement.scheme === 'basic',
    auth: () => fromKey('Basic <key>', (k) => `Basic ${k}`),
  },
  {
    id: 'token-scheme',
    what: 'the key under the Token scheme',
    schemes: ['bearer'],
    auth: () => fromKey('Token <key>', (k) => `Token ${k}`),
  },
  {
    id: 'bare-key',
    what: 'the bare key, with no scheme',
    schemes: ['bearer'],
    elsewhere: inAuthorization,
    auth: () => fromKey('<key>', (k) => k),
  },
  { id: 'empty-bearer', what: 'Bearer with no token', schemes: ['bearer'], auth: () => ({ raw: 'Bearer' }) },
  // An API that takes its key wherever it finds it takes a key the contract does not put there.
  {
    id: 'key-as-bearer',
    what: 'the key as Authorization: Bearer, not where the scheme puts it',
    schemes: ['apiKey', 'basic'],
    elsewhere: (placement) => placement.scheme === 'bearer',
    auth: () => fromKey('Bearer <key>', (k) => `Bearer ${k}`),
  },
  { id: 'empty-key', what: 'an empty key', schemes: ['apiKey'], auth: () => ({ value: '' }) },
  {
    id: 'key-prefix',
    what: 'a prefix of the key (its last character dropped)',
    auth: ({ token }) =>
      token !== undefined && token.length > 1 ? alter('<key minus its last character>', (k) => k.slice(0, -1)) : undefined,
  },
  { id: 'key-suffix', what: 'the key with a character added', auth: () => alter('<key>x', (k) => `${k}x`) },
  // As long as the key and alike but for one character: a server that checks the key's form (its prefix and length)
  // or compares all but its end takes it.
  {
    id: 'key-last-changed',
    what: 'the key with its last character changed',
    auth: ({ token }) =>
      token !== undefined && token.length > 0
        ? alter('<key, its last character changed>', (k) => `${k.slice(0, -1)}${otherThan(k.at(-1))}`)
        : undefined,
  },
  { id: 'junk-then-key', what: 'the key with characters before it', auth: () => alter('x-<key>', (k) => `x-${k}`) },
  {
    id: 'key-case',
    what: 'the key in another letter case',
    auth: ({ token }) =>
      token !== undefined && swapCase(token) !== token ? alter('<key, case swapped>', (k) => swapCase(k)) : undefined,
  },
  { id: 'key-then-junk', what: 'the key followed by a space and junk', auth: () => alter('<key> junk', (k) => `${k} junk`) },
  { id: 'random-key', what: 'a random key', auth: ({ random }) => randomKey(random) },
  // The scheme's name is case-insensitive (RFC 9110 §11.1), so `bearer <key>` may pass; a server that takes the
  // lower-case spelling as a sign of some other client must still check the key.
  {
    id: 'lower-case-scheme-random-key',
    what: 'a random key under the scheme spelled bearer',
    schemes: ['bearer'],
    auth: ({ random }) => ({ raw: `bearer conformance-${random.text(32, '0123456789abcdef')}` }),
  },
];

// A key placed where another alternative of the operation's `security` takes it (an API key header OR a bearer
// token: OpenAPI 3 §4.8.30) is a valid credential there, not a wrong one.
function takenElsewhere(variant: Variant, operation: Operation): boolean {
  const elsewhere = variant.elsewhere;
  return elsewhere !== undefined && (operation.otherKeys ?? []).some(elsewhere);
}

const randomKey = (random: GenerateContext['random']): AuthChoice => ({
  value: `conformance-${random.text(32, '0123456789abcdef')}`,
});

export const authKind: CaseKind = {
  id: 'auth',
  description:
    'every operation refuses a missing, malformed or altered key with 401, on a fresh and on a kept-alive connection, and before it looks at the body',
  generate: (context) =>
    context.contract.operations
      .flatMap((operation) => (operation.key === undefined ? [] : [{ operation, key: operation.key }]))
      .flatMap(({ operation, key }) => [
        ...casesFor(operation, { id: noKeyId(key), what: noKey(key), auth: () => 'none' }, context),
        ...VARIANTS.filter(
          (variant) => (variant.schemes?.includes(key.scheme) ?? true) && !takenElsewhere(variant, operation),
        ).flatMap((variant) => casesFor(operation, variant, context)),
        ...refusedBeforeInput(operation, context),
        ...refusedAddsNothing(operation, context),
        ...PATH_SPELLINGS.map((spelling) => respelledCase(operation, spelling)),
      ]),
};

// The literal segments of a path template, leaving `{param}` names as they are.
const literals = (template: string, change: (text: string) => string) => template.replace(/[^/{}]+(?![^{]*\})/g, change);

/**
 * Spellings of a contract path that many routers take for it (RFC 3986 §6.2.2: case and percent-encoding
 * normalisation; a trailing or doubled slash that frameworks fold away). A server may answer them 404, redirect
 * or serve them; serving them without credentials bypasses auth.
 */
const PATH_SPELLINGS: readonly { id: string; what: string; spell: (template: string) => string }[] = [
  { id: 'trailing-slash', what: 'with a trailing slash', spell: (t) => `${t}/` },
  { id: 'doubled-slash', what: 'with its first slash doubled', spell: (t) => `/${t}` },
  { id: 'upper-case', what: 'in upper case', spell: (t) => literals(t, (text) => text.toUpperCase()) },
  {
    id: 'percent-encoded',
    what: 'with its first letter percent-encoded',
    // The first letter of the first literal segment: `{petId}` must stay a name to fill in.
    spell: (t) =>
      t.replace(
        /^((?:\/\{[^}]*\})*\/[^A-Za-z/{]*)([A-Za-z])/,
        (_, before: string, c: string) => `${before}%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
  },
];

function respelledCase(operation: Operation, spelling: (typeof PATH_SPELLINGS)[number]): Scenario {
  const op = operation.operationId;
  const path = spelling.spell(operation.path);
  return makeCase({
    kind: 'auth',
    id: `${op}/path-spelling/${spelling.id}`,
    name: `${op} is not served without a key at ${path}`,
    description: `Given a request to ${op} without a key, at its path ${spelling.what} (${operation.method} ${path}), when the target answers, then it is not a success: a 401, a 404 or a redirect are the server's choice, serving it bypasses auth (auth-enforced).`,
    steps: [
      {
        ...validRequest(operation),
        auth: 'none',
        respell: spelling.spell,
        observe: `what ${operation.method} ${path} answers without a key`,
      },
    ],
    tags: ['security'],
  });
}

/**
 * Seed, Authentication: a request without a valid key is refused, so it adds nothing. Creates refused with 401, each
 * named with a refused mark (resource-marks.ts), then the list with the run's key: refused-not-stored fails a listed
 * resource carrying a mark, and says "not verified" when the list answers a full page without one.
 */
function refusedAddsNothing(operation: Operation, { contract, random }: GenerateContext): Scenario[] {
  const listed = markedList(contract, operation);
  const named = namingField(requestSchema(operation));
  const valid = validRequest(operation);
  if (!listed || named === undefined || valid.body?.kind !== 'json') return [];
  const list = listed.operation;
  const filtered = rareFilter(list, listed.resource);
  const sample = { ...(valid.body.value as Record<string, unknown>), ...filtered };
  const refused = (auth: AuthChoice): StepSpec => ({
    ...valid,
    body: { kind: 'json', value: { ...sample, [named]: refusedMark(random) } },
    auth,
    ...refusal(operation),
  });
  const op = operation.operationId;
  return [
    makeCase({
      kind: 'auth',
      id: `${op}/refused-adds-nothing`,
      name: `${op} adds nothing it refused for its credentials`,
      description: `Given valid bodies, each named with a mark of its own, sent to ${op} without a key and with a random key, when ${list.operationId} is called with the run's key (filtered by a value the bodies carry, where it has a filter), then each create was answered 401 and no listed resource carries a mark.`,
      steps: [
        refused('none'),
        refused(randomKey(random)),
        { operation: list, query: { ...largestPageQuery(list), ...filtered }, expect: { status: successStatuses(list) } },
      ],
      tags: ['security'],
    }),
  ];
}

/**
 * Seed, Authentication: "a request with a missing or invalid key receives status 401", whatever else it holds: a
 * server that validates or looks the resource up first answers 400 or 404, and tells a caller without a key what
 * it accepts and what exists.
 */
function refusedBeforeInput(operation: Operation, { random }: GenerateContext) {
  const op = operation.operationId;
  const valid = validRequest(operation);
  const json = { 'content-type': 'application/json' };
  const requests: { id: string; what: string; change: Partial<StepSpec> }[] = [];
  if (operation.requestBody) {
    requests.push(
      {
        id: 'invalid-body',
        what: 'an invalid body (an empty object)',
        change: { body: { kind: 'raw', text: '{}' }, headers: json },
      },
      { id: 'no-content-type', what: 'a body without Content-Type', change: { body: { kind: 'raw', text: '{}' }, headers: {} } },
      { id: 'invalid-json', what: 'a body that is not JSON', change: { body: { kind: 'raw', text: '{"name":' }, headers: json } },
    );
  }
  for (const parameter of operation.parameters) {
    const at = parameter.in === 'path' ? 'params' : parameter.in === 'query' ? 'query' : undefined;
    if (at === undefined) continue;
    const set = (value: unknown) => ({ [at]: { ...valid[at], [parameter.name]: value } });
    // A path that does not match the parameter's type may not reach the operation at all (a router's 404): only
    // query values are sent invalid.
    const invalid = at === 'query' ? invalidVariants(parameter)[0] : undefined;
    if (invalid)
      requests.push({ id: `invalid-${parameter.name}`, what: `${parameter.name} ${invalid.what}`, change: set(invalid.value) });
    // An id no resource has (8 and 15 random digits, below 2^53): a lookup before auth answers 404.
    if (at === 'params' && parameter.type === 'integer') {
      const absent = Number(`8${random.text(15, '0123456789')}`);
      requests.push({
        id: `unknown-${parameter.name}`,
        what: `${parameter.name} ${absent}, which no resource is likely to have`,
        change: set(absent),
      });
    }
  }
  const key = operation.key as KeyPlacement;
  return requests.map(({ id, what, change }) =>
    makeCase({
      kind: 'auth',
      id: `${op}/${noKeyId(key)}/${id}`,
      name: `${op} answers 401 to ${what}, sent without a key`,
      description: `Given ${what} and ${noKey(key)}, when it reaches ${op}, then the answer is 401: a request without a key is refused before its input is judged or its resource looked up.`,
      steps: [{ ...valid, ...change, auth: 'none', ...refusal(operation) }],
      tags: ['security'],
    }),
  );
}

function casesFor(operation: Operation, variant: Variant, context: GenerateContext): Scenario[] {
  const auth = variant.auth(context);
  if (auth === undefined) return [];
  const refused = { ...validRequest(operation), auth, ...refusal(operation) };
  const op = operation.operationId;
  return [
    makeCase({
      kind: 'auth',
      id: `${op}/${variant.id}/fresh-connection`,
      name: `${op} refuses ${variant.what}, on a fresh connection`,
      description: `Given a valid request sent with ${variant.what} on a new connection, when it reaches ${op}, then the answer is 401 with an Error body.`,
      steps: [refused],
      tags: ['security'],
      connection: 'dedicated',
    }),
    makeCase({
      kind: 'auth',
      id: `${op}/${variant.id}/kept-alive-connection`,
      name: `${op} refuses ${variant.what}, after an authenticated request on the same connection`,
      description: `Given a connection that has just carried a request with the run's key, when a request with ${variant.what} follows on it, then the answer is 401: auth is checked per request, not per connection.`,
      steps: [{ ...validRequest(operation, context), setup: true }, refused],
      tags: ['security'],
      connection: 'dedicated',
    }),
  ];
}
