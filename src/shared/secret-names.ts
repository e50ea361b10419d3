/**
 * A header or query parameter whose name says it carries a credential (an API key header, a cookie, a token, a
 * session id, a password): its value is a secret wherever it is recorded, by the runner and by the mock alike.
 */
const SECRET_NAME = /auth|cookie|token|secret|key|password|passwd|session|credential/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}
