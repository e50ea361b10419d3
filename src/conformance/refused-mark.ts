/**
 * How a body the runner expects to be refused names its resource (`conformance refused k3v9x0q2mz`): a text no
 * server makes up and no other case sends, so a listed resource that carries it was stored from a refused request.
 */
export const REFUSED_MARK = 'conformance refused ';

const MARKS = /conformance refused [0-9a-z]{10}/g;

/** The marks a request body carries (its text, parsed or not). */
export function refusedMarksIn(text: string | undefined): string[] {
  return text === undefined || !text.includes(REFUSED_MARK) ? [] : (text.match(MARKS) ?? []);
}
