import { receivedResponse } from '../../src/conformance/http/received-response.js';
import { judgeBodySchema } from '../../src/contract/judge/body-schema.js';
import { judgeContentTypeJson } from '../../src/contract/judge/content-type-json.js';
import { judgeErrorStatusMatches } from '../../src/contract/judge/error-status-matches.js';
import type { Problem } from '../../src/contract/judge/problem.js';
import { judgeStatusDocumented } from '../../src/contract/judge/status-documented.js';
import { judgeWriteOnlyHidden } from '../../src/contract/judge/write-only-hidden.js';
import type { Contract } from '../../src/contract/load-contract.js';
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

/**
 * Every answer to a contract operation must have a documented status, JSON type and a valid body, with no writeOnly
 * field: the judgements of
 * src/contract/judge/ that the runner's checks make, under the same ids, so an answer of the mock is held to the
 * contract exactly as a target's is.
 */
export function contractViolations(contract: Contract, exchanges: readonly AnsweredExchange[]): string[] {
  const problems: string[] = [];
  for (const exchange of exchanges) {
    const operation = exchange.operationId ? contract.byId.get(exchange.operationId) : undefined;
    // A client that asked for a broken body gets one: it is the answer asked for, not a violation.
    if (String(exchange.headers['preference-applied'] ?? '').includes('fault=malformed')) continue;
    const where = `${exchange.method} ${exchange.url} → ${exchange.status}`;
    const response = receivedResponse(exchange.status, headersOf(exchange), exchange.body);
    // Outside the contract's operations (admin, an unknown path) an error still comes as the Error body.
    if (exchange.status >= 400) {
      const issues = contract.schemas.get('Error')?.(response.json, 'body') ?? [];
      problems.push(...issues.map((i) => `${where}: ${i.path}: ${i.message}`));
    }
    const found: [string, Problem | undefined][] = [['error-status-matches', judgeErrorStatusMatches(response)]];
    if (operation) {
      const code = (response.json as { code?: string } | undefined)?.code;
      const deliberate =
        DELIBERATE_DEVIATIONS.has(`${operation.operationId} ${exchange.status} ${code}`) ||
        // Prefer: code=503 asks for an Error the operation may not document; its body is still checked above.
        (exchange.status >= 400 && String(exchange.headers['preference-applied'] ?? '').includes(`code=${exchange.status}`));
      found.push(['content-type-json', judgeContentTypeJson(operation, response)]);
      found.push(['write-only-hidden', judgeWriteOnlyHidden(operation, response)]);
      if (!deliberate) {
        found.push(['status-documented', judgeStatusDocumented(operation, response)]);
        found.push(['body-schema', judgeBodySchema(operation, response)]);
      }
    }
    for (const [id, problem] of found) if (problem) problems.push(`${where}: ${id}: ${problem.title}: ${problem.received}`);
  }
  return problems;
}

function headersOf(exchange: AnsweredExchange): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
