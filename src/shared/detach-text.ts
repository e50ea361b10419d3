/**
 * A copy of `text` that holds no reference to a larger string. V8 represents a slice, or text built from one, as
 * a view of the original: a 4 KiB excerpt kept in a finding would keep a whole 10 MB answer alive. Through a
 * Buffer the copy is flat and owns its characters.
 */
export function detachText(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
