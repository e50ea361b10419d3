/** Most severe first: critical (5xx, security), high (contract violation), medium (content type, headers, undocumented status), low (hygiene, timing). */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

export type Severity = (typeof SEVERITIES)[number];

export function isSeverity(text: string): text is Severity {
  return (SEVERITIES as readonly string[]).includes(text);
}

/** True when `severity` is `threshold` or more severe. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}
