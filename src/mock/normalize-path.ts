// RFC 3986 §2.3: letters, digits and - . _ ~ mean the same whether percent-encoded or not.
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * Decodes the percent-encoded unreserved characters of a request path (RFC 3986 §6.2.2.2), so /v1/pe%74s is routed
 * as /v1/pets. Every other escape stays as it is: %2F is data inside a segment, not a separator.
 */
export function normalizePath(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : encoded;
  });
}
