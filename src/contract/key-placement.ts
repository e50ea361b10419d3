/**
 * Where a request carries the one key the mock and the runner know, as a security scheme of the contract says
 * (OpenAPI 3 Security Scheme Object): `Authorization: Bearer <key>` (RFC 6750 §2.1), `Authorization: Basic
 * <base64 of user:password>` (RFC 7617 §2), or the key alone in a header, a query parameter or a cookie (apiKey).
 */
export type KeyPlacement = (
  | {
      readonly scheme: 'bearer';
      readonly schemeName: string;
      /** The scheme the contract names, where the token is an OAuth 2.0 access token (RFC 6750) and not an http one. */
      readonly tokenOf?: 'oauth2' | 'openIdConnect';
    }
  | { readonly scheme: 'basic'; readonly schemeName: string }
  | {
      readonly scheme: 'apiKey';
      readonly schemeName: string;
      readonly in: 'header' | 'query' | 'cookie';
      /** The header (as the contract spells it), query parameter or cookie name. */
      readonly name: string;
    }
) & {
  /** Where the schemes required together with this one go (`the X-Tenant-Id header`): not the run's to fill. */
  readonly alongside?: readonly string[];
};

/** The scheme of the Security Scheme Object, as Prism's model of an operation gives it. */
export interface SecuritySchemeModel {
  readonly type: string;
  readonly key?: string;
  readonly scheme?: string;
  readonly in?: string;
  readonly name?: string;
}

/**
 * How an operation is protected: no credentials ('none'), the key placed as `key` says, or 'other': only schemes
 * the tools cannot place (mutualTLS, another HTTP scheme), or no `security` anywhere in the contract, which says
 * nothing either way.
 */
export type AuthKind = 'none' | 'key' | 'other';

/**
 * OpenAPI 3 §4.8.30: `security` lists alternatives, each a set of schemes that are all needed; an empty list or an
 * empty alternative means no credentials are needed. The first alternative the one key can satisfy (a single
 * scheme of a kind placed here) is the one the runner sends and the mock takes, so that both read the contract
 * alike. An oauth2 or openIdConnect scheme is taken only where no alternative is a key of its own: its access token
 * travels as a Bearer token (RFC 6750 §2.1), but a key given on a command line is more likely the static one.
 * `declared`: the operation or the document has a `security` field at all.
 */
export function readSecurity(
  alternatives: readonly (readonly SecuritySchemeModel[])[],
  declared: boolean,
): { readonly auth: AuthKind; readonly key: KeyPlacement | undefined; readonly otherKeys?: readonly KeyPlacement[] } {
  if (alternatives.length === 0 && !declared) return { auth: 'other', key: undefined };
  if (alternatives.length === 0 || alternatives.some((all) => all.length === 0)) return { auth: 'none', key: undefined };
  const placed = alternatives.flatMap((all) => {
    const key = all.length === 1 ? placementOf(all[0] as SecuritySchemeModel) : undefined;
    return key ? [key] : [];
  });
  const [key, ...otherKeys] = placed;
  if (key) return otherKeys.length > 0 ? { auth: 'key', key, otherKeys } : { auth: 'key', key };
  // Schemes required together (an API key AND a tenant header): the key goes in the first, the others are the
  // client's to send (-H), and are named where a refused key is explained.
  for (const all of alternatives) {
    const each = all.map((model) => placementOf(model));
    const [first, ...rest] = each;
    if (all.length > 1 && first && rest.every((p) => p !== undefined)) {
      return { auth: 'key', key: { ...first, alongside: rest.map((p) => placementWhere(p as KeyPlacement)) } };
    }
  }
  for (const all of alternatives) {
    const model = all.length === 1 ? (all[0] as SecuritySchemeModel) : undefined;
    if (model?.type === 'oauth2' || model?.type === 'openIdConnect') {
      return { auth: 'key', key: { scheme: 'bearer', schemeName: model.key ?? model.type, tokenOf: model.type } };
    }
  }
  return { auth: 'other', key: undefined };
}

function placementOf(model: SecuritySchemeModel): KeyPlacement | undefined {
  const schemeName = model.key ?? model.type;
  // RFC 9110 §11.1: an auth-scheme name is case-insensitive.
  const http = model.type === 'http' ? model.scheme?.toLowerCase() : undefined;
  if (http === 'bearer' || http === 'basic') return { scheme: http, schemeName };
  if (model.type !== 'apiKey' || !model.name) return undefined;
  if (model.in === 'header' || model.in === 'query' || model.in === 'cookie') {
    return { scheme: 'apiKey', schemeName, in: model.in, name: model.name };
  }
  return undefined;
}

/** Where the key goes, in words: `the Authorization header`, `the X-API-Key header`, `the api_key query parameter`. */
export function placementWhere(key: KeyPlacement): string {
  if (key.scheme !== 'apiKey') return 'the Authorization header';
  return `the ${key.name} ${key.in === 'query' ? 'query parameter' : key.in}`;
}

/** How the key was sent, for a hint: `sent in the X-API-Key header, as the contract's apiKey scheme says`. */
export function placementSaid(key: KeyPlacement): string {
  const how =
    key.scheme === 'bearer'
      ? 'as Authorization: Bearer <key>'
      : key.scheme === 'basic'
        ? 'as Authorization: Basic <base64 of the key>'
        : `in ${placementWhere(key)}`;
  const kind = key.scheme === 'apiKey' ? 'apiKey' : key.scheme === 'bearer' && key.tokenOf ? key.tokenOf : `http ${key.scheme}`;
  const alongside = key.alongside?.length
    ? `; the contract requires ${key.alongside.join(' and ')} with it: send ${key.alongside.length === 1 ? 'it' : 'them'} with -H`
    : '';
  return `sent ${how}, as the contract's ${kind} scheme '${key.schemeName}' says${alongside}`;
}
