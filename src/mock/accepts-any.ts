/**
 * Whether an Accept header (RFC 9110 §12.5.1) allows any of `mediaTypes` (lower-case type/subtype). For each
 * type the most specific range that matches it decides (type/subtype over type/* over *\/*), so
 * `application/json;q=0, *\/*` refuses JSON; q=0 means "not acceptable". Parameters other than q are ignored.
 * An empty header asks nothing. Linear: split and indexOf only, no regex over the header.
 */
export function acceptsAny(accept: string, mediaTypes: readonly string[]): boolean {
  if (accept === '*/*' || accept.trim() === '') return true;
  const ranges = readRanges(accept);
  return mediaTypes.some((mediaType) => {
    const slash = mediaType.indexOf('/');
    const typeWildcard = `${mediaType.slice(0, slash)}/*`;
    let best = -1;
    let quality = 0;
    for (const range of ranges) {
      const specificity = range.name === mediaType ? 2 : range.name === typeWildcard ? 1 : range.name === '*/*' ? 0 : -1;
      if (specificity > best) {
        best = specificity;
        quality = range.quality;
      }
    }
    return quality > 0;
  });
}

interface Range {
  readonly name: string;
  readonly quality: number;
}

function readRanges(accept: string): Range[] {
  const ranges: Range[] = [];
  for (const part of accept.split(',')) {
    const [name = '', ...parameters] = part.split(';');
    let quality = 1;
    for (const parameter of parameters) {
      const equals = parameter.indexOf('=');
      if (equals !== -1 && parameter.slice(0, equals).trim().toLowerCase() === 'q') {
        const value = Number(parameter.slice(equals + 1).trim());
        quality = Number.isFinite(value) ? value : 0;
      }
    }
    const trimmed = name.trim().toLowerCase();
    if (trimmed !== '') ranges.push({ name: trimmed, quality });
  }
  return ranges;
}
