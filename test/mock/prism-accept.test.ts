import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';
import { writeContract } from '../support/write-contract.js';

// Two operations Prism answers, in different media types: each request is negotiated by its own Accept. Prism
// writes the Accept it reads into the config it is given, so one config shared by every request answered the
// second request by the first one's Accept (406 'Unable to find content for text/csv').
const CONTRACT = {
  openapi: '3.0.3',
  info: { title: 'Two media types', version: '1.0.0' },
  paths: {
    '/report': {
      get: {
        operationId: 'getReport',
        responses: { 200: { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' }, example: 'a,b\n' } } } },
      },
    },
    '/summary': {
      get: {
        operationId: 'getSummary',
        responses: {
          200: {
            description: 'JSON',
            content: { 'application/json': { schema: { type: 'object' }, example: { total: 3 } } },
          },
        },
      },
    },
  },
};

describe('Prism answers, one Accept after another', async () => {
  const mock = await startMock({ contract: await writeContract(CONTRACT), log: () => {} });

  it('answers each request in a media type its own Accept allows', async () => {
    const csv = await call(mock.url, 'GET', '/report', { auth: null, headers: { accept: 'text/csv' } });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const json = await call(mock.url, 'GET', '/summary', { auth: null, headers: { accept: 'application/json' } });
    expect(json.status, json.text).toBe(200);
    expect(json.json).toEqual({ total: 3 });
    const again = await call(mock.url, 'GET', '/report', { auth: null, headers: { accept: 'text/csv, application/json' } });
    expect(again.status, again.text).toBe(200);
  });
});
