import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/load-contract.js';
import type { Operation } from '../contract/operation.js';
import { deploymentStop, type ProbeAnswer } from './deployment-stop.js';
import { receivedResponse } from './http/received-response.js';

describe('deploymentStop', async () => {
  const contract = await loadContract();
  const listPets = contract.byId.get('listPets') as Operation;
  const getPet = contract.byId.get('getPet') as Operation;
  const answer = (operation: Operation, status: number, headers: Record<string, string>, body = ''): ProbeAnswer => ({
    operation,
    url: `http://127.0.0.1:4010/v1${operation.path.replace('{petId}', '42')}`,
    response: receivedResponse(status, headers, body),
  });
  const both = (status: number, headers: Record<string, string>, body = '') => [
    answer(listPets, status, headers, body),
    answer(getPet, status, headers, body),
  ];

  it('stops on a redirect to another origin or to a sign-in path, never on one to another API path', () => {
    expect(deploymentStop(both(302, { location: 'https://idp.example.test/saml2/sso?SAMLRequest=abc' }))?.reason).toContain(
      'redirected (302) to https://idp.example.test/saml2/sso:',
    );
    expect(deploymentStop(both(307, { location: '/oauth2/authorize' }))?.kind).toBe('configuration');
    expect(deploymentStop(both(301, { location: '/v2/pets' }))).toBeUndefined();
    expect(deploymentStop(both(302, {}))).toBeUndefined();
  });

  it('stops on 502, 503 or 504 everywhere, with Retry-After as sent, cut short', () => {
    expect(deploymentStop([answer(listPets, 503, { 'retry-after': '120' }), answer(getPet, 502, {})])?.reason).toMatch(
      /^every probed operation answered 503 Service Unavailable, 502 Bad Gateway \(Retry-After: 120\): /,
    );
    expect(deploymentStop(both(503, { 'retry-after': 'x'.repeat(500) }))?.reason).toContain(`Retry-After: ${'x'.repeat(120)}…)`);
    expect(deploymentStop(both(500, {}))).toBeUndefined();
  });

  it('stops on HTML where JSON is documented on every operation only, and not on mixed shapes', () => {
    const page = { 'content-type': 'text/html; charset=utf-8' };
    expect(deploymentStop(both(200, page, '<html></html>'))?.kind).toBe('configuration');
    expect(
      deploymentStop([answer(listPets, 200, page), answer(getPet, 404, { 'content-type': 'application/json' }, '{}')]),
    ).toBeUndefined();
    expect(deploymentStop([answer(listPets, 200, page), answer(getPet, 503, {})])).toBeUndefined();
    expect(deploymentStop([])).toBeUndefined();
  });
});
