import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { credentialParametersHint } from './credential-parameters-hint.js';

// Two operations require X-Refresh-Token, one a session_id cookie; the X-Api-Key header is where the run's key goes.
const CONTRACT = `openapi: 3.0.3
info: {title: T, version: "1"}
security: [{key: []}]
paths:
  /sessions:
    get:
      parameters:
        - {name: X-Refresh-Token, in: header, required: true, schema: {type: string}}
        - {name: X-Api-Key, in: header, required: true, schema: {type: string}}
        - {name: X-Request-Id, in: header, required: true, schema: {type: string}}
      responses: {"200": {description: ok}}
    delete:
      parameters:
        - {name: X-Refresh-Token, in: header, required: true, schema: {type: string}}
        - {name: session_id, in: cookie, required: true, schema: {type: string}}
      responses: {"204": {description: gone}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
`;

describe('the hint for required parameters that hold a credential', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'credential-hint-'));
  await writeFile(join(dir, 'openapi.yaml'), CONTRACT);
  const { operations } = await loadContract(join(dir, 'openapi.yaml'));

  it('names each one -H did not give, how many operations require it, and how to give it; never where the key goes', () => {
    const hint = credentialParametersHint(operations, undefined);
    // Header names as HTTP reads them, in lower case.
    expect(hint).toContain("the x-refresh-token header (-H 'x-refresh-token: <value>'), required by 2 operations");
    expect(hint).toContain("the session_id cookie (-H 'Cookie: session_id=<value>'), required by 1 operation");
    expect(hint).not.toContain('x-api-key');
    expect(hint).not.toContain('x-request-id');
  });

  it('says nothing of what -H gives, in any letter case', () => {
    expect(credentialParametersHint(operations, { 'x-refresh-token': 'r', Cookie: 'theme=dark; session_id=s' })).toBeUndefined();
    expect(credentialParametersHint(operations, { 'X-REFRESH-TOKEN': 'r' })).toBe(
      "Not sent: the session_id cookie (-H 'Cookie: session_id=<value>'), required by 1 operation. Its name says it holds a credential, which the run never makes up, so a server that requires it refuses those requests: give it with -H.",
    );
  });
});
