import { AppError } from '../../contract/app-error.js';
import { certificateProblem } from './certificate-problem.js';

// OpenSSL's record layer reads a plain-HTTP answer ("HTTP/1.1 400") as a TLS record of version 0x5454.
const NOT_TLS = 'ERR_SSL_WRONG_VERSION_NUMBER';

/**
 * A TLS handshake that fails the same way however often it is tried: a certificate the run does not trust, or a
 * server that does not speak TLS on that port. Neither waiting nor sending again changes its outcome.
 */
export function handshakeFails(code: string | undefined): boolean {
  return code === NOT_TLS || certificateProblem(code) !== undefined;
}

/**
 * The run's configuration (exit 2) rather than a target that did not answer (exit 3): something answered the
 * handshake, and the line says which option or URL fixes it.
 */
export function handshakeStop(target: string, code: string | undefined): AppError | undefined {
  const untrusted = certificateProblem(code);
  if (untrusted !== undefined) return new AppError('target_untrusted', `Target ${target} is not trusted: ${untrusted}`);
  if (code !== NOT_TLS) return undefined;
  return new AppError(
    'target_not_tls',
    `Target ${target} does not speak TLS: a plain-HTTP server answered the handshake: give --target ${plainUrl(target)} (${code})`,
  );
}

// The same host and port over plain HTTP: an https:// URL without a port meant 443, and so must the http:// one.
// The target has no trailing slash (checkTarget), and URL adds one to a bare host.
function plainUrl(target: string): string {
  const url = new URL(target);
  const port = url.port || '443';
  url.protocol = 'http:';
  url.port = port;
  return url.href.replace(/\/$/, '');
}
