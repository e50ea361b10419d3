import { allowOn405 } from './allow-on-405.js';
import { answered } from './answered.js';
import { authEnforced } from './auth-enforced.js';
import { bodyExpected } from './body-expected.js';
import { bodySchema } from './body-schema.js';
import { challengeOn401 } from './challenge-on-401.js';
import type { Check } from './check.js';
import { contentTypeJson } from './content-type-json.js';
import { createdLocation } from './created-location.js';
import { dateHeader } from './date-header.js';
import { errorStatusMatches } from './error-status-matches.js';
import { fetchedAsAddressed } from './fetched-as-addressed.js';
import { headersDocumented } from './headers-documented.js';
import { headersExpected } from './headers-expected.js';
import { headLikeGet } from './head-like-get.js';
import { headOptionsAnswered } from './head-options-answered.js';
import { idAssignedOnce } from './id-assigned-once.js';
import { idsUniqueInList } from './ids-unique-in-list.js';
import { jsonCharset } from './json-charset.js';
import { jsonUtf8 } from './json-utf8.js';
import { jsonWithoutBom } from './json-without-bom.js';
import { listedAsCreated } from './listed-as-created.js';
import { listWithinQuery } from './list-within-query.js';
import { noContentAfterHeaders } from './no-content-after-headers.js';
import { noServerError } from './no-server-error.js';
import { notModified } from './not-modified.js';
import { etagChanges } from './etag-changes.js';
import { preconditionEnforced } from './precondition-enforced.js';
import { totalCount } from './total-count.js';
import { refusedNotStored } from './refused-not-stored.js';
import { RESOURCE_EFFECT_CHECKS } from './resource-effects.js';
import { responseTime } from './response-time.js';
import { statusDocumented } from './status-documented.js';
import { statusExpected } from './status-expected.js';
import { storedOnce } from './stored-once.js';
import { writeOnlyHidden } from './write-only-hidden.js';

/** Every check runs on every exchange; a new check is a new row. */
export const BUILT_IN_CHECKS: readonly Check[] = [
  answered,
  noServerError,
  authEnforced,
  statusDocumented,
  statusExpected,
  contentTypeJson,
  jsonWithoutBom,
  jsonUtf8,
  jsonCharset,
  bodySchema,
  writeOnlyHidden,
  errorStatusMatches,
  idsUniqueInList,
  idAssignedOnce,
  fetchedAsAddressed,
  listedAsCreated,
  listWithinQuery,
  refusedNotStored,
  storedOnce,
  headersDocumented,
  challengeOn401,
  allowOn405,
  createdLocation,
  dateHeader,
  headOptionsAnswered,
  headLikeGet,
  noContentAfterHeaders,
  ...RESOURCE_EFFECT_CHECKS,
  notModified,
  etagChanges,
  preconditionEnforced,
  totalCount,
  bodyExpected,
  headersExpected,
  responseTime,
];
