import { bracketed, hostnameOf } from '../mock/boundary/host-names.js';
import { isLoopbackName } from '../mock/boundary/loopback.js';

/**
 * What the start-up banner warns of: a mock reachable from other machines, or readable by any web page. Each is
 * a choice the user made with an option; the banner says what it opens, so it is never made by accident.
 */
export function exposureWarnings(choices: { host: string; adminFromNetwork: boolean; anyOrigin: boolean }): string[] {
  const warnings: string[] = [];
  if (!isLoopbackName(hostnameOf(bracketed(choices.host)))) {
    warnings.push(
      `Warning: --host ${choices.host} is not a loopback address: other machines on the network can call the API${
        choices.adminFromNetwork
          ? ', and the admin endpoints (--admin-from-network)'
          : ' (the admin endpoints still answer only this machine)'
      }. Name the mock's other host names with --allowed-host.`,
    );
  } else if (choices.adminFromNetwork) {
    warnings.push('Warning: --admin-from-network has no effect while the mock listens on a loopback address only.');
  }
  if (choices.anyOrigin) {
    warnings.push(
      "Warning: --cors-origin '*': any web page can read the API's answers (without cookies, and not the admin endpoints).",
    );
  }
  return warnings;
}
