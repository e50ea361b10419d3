/** "1 scenario", "2 scenarios", "0 findings": the count and the noun, agreeing. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
