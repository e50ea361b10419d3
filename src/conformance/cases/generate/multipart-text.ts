import { objectShape } from '../../../contract/resources/object-shape.js';
import type { JsonSchema } from '../../../contract/operation.js';

/** The boundary the runner's multipart bodies use: no sample value holds it (a body whose value did is not made). */
export const MULTIPART_BOUNDARY = 'conformance-runner-boundary-5c1e0d';

/**
 * An object as `multipart/form-data` text (RFC 7578), as OpenAPI's default encoding writes it: a part per field by
 * its name, an array of values its name repeated, a file field (fileType) a part with a `filename` and its media type. Undefined for what that text cannot carry as the schema reads it: a nested object or
 * an array of objects (its default is a JSON part, which the runner does not write), or no object at all. A null is
 * left out.
 */
export function multipartText(value: unknown, schema: JsonSchema | undefined): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const properties = objectShape(schema)?.properties ?? {};
  let text = '';
  for (const [name, field] of Object.entries(value)) {
    const property = Object.hasOwn(properties, name) ? (properties[name] as JsonSchema) : undefined;
    const file = fileType(property) ?? fileType(property?.items as JsonSchema | undefined);
    for (const item of Array.isArray(field) ? field : [field]) {
      if (item === null || item === undefined) continue;
      if (typeof item === 'object') return undefined;
      const content = String(item);
      if (content.includes(MULTIPART_BOUNDARY) || /["\r\n\\]/.test(name)) return undefined;
      const disposition = `form-data; name="${name}"${file ? `; filename="${name}.bin"` : ''}`;
      const type = file ? `\r\nContent-Type: ${file}` : '';
      text += `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n${content}\r\n`;
    }
  }
  return `${text}--${MULTIPART_BOUNDARY}--\r\n`;
}

/**
 * The media type of a file field: a string of `format: binary` (OpenAPI 3.0, which the contract's schemas read as
 * `contentMediaType: application/octet-stream`) or with a `contentMediaType` (3.1).
 */
function fileType(schema: JsonSchema | undefined): string | undefined {
  const { format, contentMediaType } = (schema ?? {}) as { format?: unknown; contentMediaType?: unknown };
  if (typeof contentMediaType === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(contentMediaType)) return contentMediaType;
  return format === 'binary' ? 'application/octet-stream' : undefined;
}
