/**
 * The run's hints, each once and without a "Hint:" of its own (reporters add their own label). The engine owns
 * the hints; a result without them (an older report.json, a library caller's result) has none.
 */
export function runHints(result: { readonly hints?: readonly string[] }): string[] {
  return [...new Set((result.hints ?? []).map((hint) => hint.replace(/^Hint:\s*/, '')))];
}
