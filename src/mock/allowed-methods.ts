/** RFC 9110 §9.3.2: HEAD is GET without the body, so wherever GET is allowed HEAD is too, right after it. */
export function withHead(methods: readonly string[]): string[] {
  if (!methods.includes('GET') || methods.includes('HEAD')) return [...methods];
  return methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
}

/** The method to look a request up by: a HEAD where only GET is defined is answered as that GET. */
export function lookupMethod(method: string, defined: (method: string) => boolean): string {
  return method === 'HEAD' && !defined('HEAD') && defined('GET') ? 'GET' : method;
}
