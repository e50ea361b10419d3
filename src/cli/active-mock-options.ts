/**
 * The options given that change what the mock answers, for the start-up banner: a developer who left `--delay` or
 * `--state-file` in a script should not have to guess why answers are slow or old pets come back.
 */
export function activeMockOptions(options: Readonly<Record<string, unknown>>): string[] {
  const active: string[] = [];
  const value = (name: string) => options[name] as string | undefined;
  if (options.watch) active.push('--watch (the contract and the fixtures file are reloaded when saved)');
  if (value('state-file') !== undefined) active.push(`--state-file ${value('state-file')} (the store is kept across restarts)`);
  if (value('delay') !== undefined) active.push(`--delay ${value('delay')} (every API answer waits, in ms)`);
  if (options['no-fixtures']) active.push('--no-fixtures (the store starts empty)');
  if (value('max-sessions') === '0') active.push('--max-sessions 0 (X-Mock-Session is ignored)');
  const origins = options['cors-origin'] as string[] | undefined;
  if (origins !== undefined && origins.length > 0) active.push(`--cors-origin ${origins.join(', ')}`);
  return active;
}
