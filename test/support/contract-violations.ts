import type { ValidationIssue } from '../../src/contract/compile-schema.js';
import { findMedia, findResponse, mediaTypeOf } from '../../src/contract/find-response.js';
import type { Contract } from '../../src/contract/load-contract.js';
import { parseJson } from '../../src/contract/lossless-json.js';
import type { AnsweredExchange } from '../../src/mock/mock-options.js';

/**
 * Deliberate answers outside the contract, each decided and documented in docs/reference/open-choices.md: the contract lists no
 * status for them. Keyed `operationId status code`.
 */
export const DELIBERATE_DEVIATIONS: ReadonlySet<string> = new Set([
  'listPets 400 invalid_parameter', // out-of-range or junk limit/status: the issue asks for a 400 Error
  'listOrders 400 invalid_parameter', // the same choice, on the extra operation of prism-fallback.test.ts
  'createPet 409 store_full', // --max-pets reached
  'createPet 413 payload_too_large', // body over 1 MiB
  'listPets 400 invalid_session', // an X-Mock-Session header that is not a session name
  'createPet 409 too_many_sessions', // --max-sessions reached: a session is made by its first write, never by a read
  'createMessage 400 invalid_content_type', // the quickstart lists no 400; the mock validates it like createPet
  'createMessage 400 missing_body',
  'createMessage 400 invalid_json',
  'createMessage 400 validation_failed',
  // An Accept that allows no JSON: 406, as Prism answers for the operations it serves (RFC 9110 §12.5.1)
  'listPets 406 not_acceptable',
  'createPet 406 not_acceptable',
  'listOrders 406 not_acceptable',
]);

/** Every answer to a contract operation must have a documented status, JSON type and a valid body. */
export function contractViolations(contract: Contract, exchanges: readonly AnsweredExchange[]): string[] {
  const problems: string[] = [];
  for (const exchange of exchanges) {
    const operation = exchange.operationId ? contract.byId.get(exchange.operationId) : undefined;
    // A client that asked for a broken body gets one: it is the answer asked for, not a violation.
    if (String(exchange.headers['preference-applied'] ?? '').includes('fault=malformed')) continue;
    const body = exchange.body === '' ? undefined : parseJson(exchange.body);
    const code = (body as { code?: string } | undefined)?.code;
    const where = `${exchange.method} ${exchange.url} → ${exchange.status}`;
    if (body !== undefined && mediaTypeOf(String(exchange.headers['content-type'])) !== 'application/json') {
      problems.push(`${where}: Content-Type ${String(exchange.headers['content-type'])}`);
    }
    if (exchange.status >= 400) {
      const issues = contract.schemas.get('Error')?.(body, 'body') ?? [];
      problems.push(...issues.map((i) => `${where}: ${i.path}: ${i.message}`));
      if ((body as { status?: number } | undefined)?.status !== exchange.status) problems.push(`${where}: Error status differs`);
    }
    if (!operation) continue;
    if (DELIBERATE_DEVIATIONS.has(`${operation.operationId} ${exchange.status} ${code}`)) continue;
    // Prefer: code=503 asks for an Error the operation may not document; its body is still checked above.
    if (exchange.status >= 400 && String(exchange.headers['preference-applied'] ?? '').includes(`code=${exchange.status}`)) continue;
    const response = findResponse(operation, exchange.status);
    if (!response) {
      problems.push(`${where}: status not documented for ${operation.operationId}`);
      continue;
    }
    const media = findMedia(response.contents, mediaTypeOf(String(exchange.headers['content-type'])));
    const issues: readonly ValidationIssue[] = media?.validate?.(body) ?? [];
    problems.push(...issues.map((i) => `${where}: ${i.path}: ${i.message}`));
  }
  return problems;
}
