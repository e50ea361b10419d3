import type { Finding } from '../run-result.js';

/** The plain-text account of a finding that the console, JUnit and Markdown share. */
export function describeFinding(finding: Finding): string {
  return [
    `[${finding.severity}] ${finding.checkId}: ${finding.title}`,
    `  step ${finding.step} (${finding.operationId}), ${finding.clause}`,
    `  Received:   ${finding.received}`,
    `  Documented: ${finding.documented}`,
    `  Reproduce:  ${finding.curl}`,
  ].join('\n');
}
