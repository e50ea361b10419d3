/**
 * A TLS handshake the runner refused: the target answered, but with a certificate it was not told to trust. That
 * is the run's configuration (exit 2), not a target that did not answer; each row says, in words, what is wrong
 * with the certificate and which option fixes it. Codes are OpenSSL's verify results and Node's host name check
 * (RFC 6125 §6), as Node reports them.
 */
const TRUST =
  'give the certificate of its issuer (or the certificate itself) with --ca <file>, or accept any certificate with --insecure';

const PROBLEMS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: `the certificate is self-signed: ${TRUST}`,
  SELF_SIGNED_CERT_IN_CHAIN: `the certificate chain ends in a self-signed root that is not trusted: ${TRUST}`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: `the certificate's issuer is unknown (a private CA, or the server does not send its intermediate certificates): ${TRUST}`,
  UNABLE_TO_GET_ISSUER_CERT: `the certificate's issuer is unknown: ${TRUST}`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: `the certificate's issuer is unknown (a private CA): ${TRUST}`,
  ERR_TLS_CERT_ALTNAME_INVALID:
    'the certificate is for another host name: give --target a host name the certificate names, or skip the check with --insecure',
  CERT_HAS_EXPIRED: 'the certificate has expired: renew it on the target, or skip the check with --insecure',
  CERT_NOT_YET_VALID: "the certificate is not valid yet (check this machine's clock), or skip the check with --insecure",
  CERT_SIGNATURE_FAILURE: `the certificate's signature does not verify: ${TRUST}`,
  CERT_REVOKED: 'the certificate has been revoked: replace it on the target, or skip the check with --insecure',
};

/** What is wrong with the target's certificate and how to fix it, when `code` is a certificate verification failure. */
export function certificateProblem(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  const problem = PROBLEMS[code];
  return problem === undefined ? undefined : `${problem} (${code})`;
}
