import { describeIssues } from '../../../contract/compile-schema.js';
import { findMedia, findResponse, mediaTypeOf } from '../../../contract/find-response.js';
import type { Check } from './check.js';

export const bodySchema: Check = {
  id: 'body-schema',
  severity: 'high',
  clause: 'Resources and their fields: the body of a documented response matches its schema (Pet, Pets, Error, Message)',
  observed: 'documented',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    const documented = response && findResponse(operation, response.status);
    if (!response || !documented || documented.contents.length === 0) return undefined;
    // A wrong Content-Type is content-type-json's finding; the body is still held to the documented schema.
    const media = findMedia(documented.contents, mediaTypeOf(response.headers['content-type'])) ?? documented.contents[0];
    if (!media?.validate) return undefined;
    const schemaOf = `the ${documented.code} response of ${operation.operationId}`;
    if (response.text === '') return { title: 'empty body', received: '(no body)', documented: `a JSON body, ${schemaOf}` };
    if (response.jsonError !== undefined) {
      return {
        title: 'body is not JSON',
        received: `${response.text.slice(0, 200)} (${response.jsonError})`,
        documented: schemaOf,
      };
    }
    const issues = media.validate(response.json, 'body');
    if (issues.length === 0) return undefined;
    return {
      title: `body does not match ${schemaOf}`,
      received: describeIssues(issues),
      documented: schemaOf,
    };
  },
};
