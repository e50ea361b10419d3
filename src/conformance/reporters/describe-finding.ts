import type { Finding } from '../run-result.js';

/** How much of a body a report shows: all of it, or "the first 4096 of 52428800 characters". */
export function bodyExtent(response: NonNullable<Finding['response']>): string {
  const length = response.bodyLength ?? response.body.length;
  if (length === 0) return 'empty body';
  return length > response.body.length ? `the first ${response.body.length} of ${length} characters` : `${length} characters`;
}

/**
 * The plain-text account of a finding that the console and JUnit share. `shown` makes target text safe for
 * where it goes (escaped for a terminal, as is for XML, which escapes it itself).
 */
export function describeFinding(finding: Finding, shown: (text: string) => string = (text) => text): string {
  const response = finding.response;
  return [
    `[${finding.severity}] ${finding.checkId}: ${shown(finding.title)}`,
    `  step ${finding.step} (${finding.operationId}), ${finding.clause}`,
    `  Received:   ${shown(finding.received)}`,
    `  Documented: ${shown(finding.documented)}`,
    ...(finding.consequences ?? []).map((c) => `  Also, as a consequence: [${c.severity}] ${c.checkId}: ${shown(c.title)}`),
    ...(response ? [`  Response:   ${response.status}, ${bodyExtent(response)}`] : []),
    ...(finding.curl ? [`  Reproduce:  ${shown(finding.curl)}`] : []),
  ].join('\n');
}
