import { terminalText } from '../../shared/terminal-text.js';
import { maskTarget } from './mask-credentials.js';
import type { JournalRecord } from './request-journal.js';

/**
 * `POST /v1/pets 400 validation_failed 0.4ms`, with what Prefer asked that was not applied and why; a fault that
 * sent nothing has `-` for its status. In 'json', one object a line for log shippers. The URL, the session and
 * the notes are redacted (each may quote what the client sent: a key in a query string, a Prefer value, a session
 * name), and credential-named query parameters are masked unless `keepSecrets`; headers and bodies are never
 * logged.
 */
export function formatLogLine(
  entry: JournalRecord,
  redact: (text: string) => string,
  format: 'text' | 'json',
  keepSecrets = false,
): string {
  const url = redact(maskTarget(entry.url, entry.key, keepSecrets));
  const ms = Math.round(entry.durationMs * 10) / 10;
  if (format === 'json') {
    return JSON.stringify({
      time: new Date(entry.at).toISOString(),
      method: entry.method,
      url,
      status: entry.status ?? null,
      errorCode: entry.errorCode ?? null,
      durationMs: ms,
      operationId: entry.operationId ?? null,
      session: entry.session === undefined ? null : redact(entry.session),
      applied: (entry.applied ?? []).map(redact),
      notApplied: (entry.notApplied ?? []).map(redact),
    });
  }
  const status =
    entry.status !== undefined ? String(entry.status) : entry.applied ? `- ${redact(entry.applied.join(', '))}` : '-';
  const code = entry.errorCode === undefined ? '' : ` ${entry.errorCode}`;
  const notApplied = entry.notApplied ? ` (not applied: ${redact(entry.notApplied.join('; '))})` : '';
  // What the client sent (a URL, a Prefer value) may hold control characters, C1 ones among them (U+0085 starts a
  // line for tools that follow Unicode): each is shown as an escape, so no line can forge another.
  return terminalText(`${entry.method} ${url} ${status}${code} ${entry.durationMs.toFixed(1)}ms${notApplied}`);
}
