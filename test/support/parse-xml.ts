export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A strict little XML reader for the reports' tests: elements, attributes, text, entities. It throws on a
 * bad nesting, an unescaped '<' or '&', or anything after the root, which is what a CI system's parser would reject.
 */
export function parseXml(text: string): XmlElement {
  const source = text.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const token = /<\/([\w:-]+)\s*>|<([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let consumed = 0;
  for (let match = token.exec(source); match !== null; match = token.exec(source)) {
    consumed = token.lastIndex;
    const [, closing, opening, attrs, selfClosing, chars] = match;
    if (chars !== undefined) {
      const top = stack[stack.length - 1];
      if (!top) {
        if (chars.trim()) throw new Error(`text outside the root: ${chars.slice(0, 40)}`);
        continue;
      }
      top.text += decode(chars);
    } else if (closing !== undefined) {
      const top = stack.pop();
      if (top?.name !== closing) throw new Error(`</${closing}> closes <${top?.name}>`);
    } else {
      if (root && stack.length === 0) throw new Error('a second root element');
      const element: XmlElement = { name: opening as string, attributes: parseAttributes(attrs ?? ''), children: [], text: '' };
      stack[stack.length - 1]?.children.push(element);
      root ??= element;
      if (!selfClosing) stack.push(element);
    }
  }
  if (consumed !== source.length) throw new Error(`not XML at offset ${consumed}: ${source.slice(consumed, consumed + 40)}`);
  if (!root || stack.length > 0) throw new Error('unclosed elements');
  return root;
}

function parseAttributes(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1], decode(m[2] as string)]));
}

function decode(text: string): string {
  return text.replace(/&(#\d+|\w+);|&/g, (whole, name: string | undefined) => {
    if (name === undefined) throw new Error('an unescaped &');
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    const value = ENTITIES[name];
    if (value === undefined) throw new Error(`unknown entity ${whole}`);
    return value;
  });
}

/** Every element named `name` below (and including) `element`. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return [...(element.name === name ? [element] : []), ...element.children.flatMap((child) => findAll(child, name))];
}
