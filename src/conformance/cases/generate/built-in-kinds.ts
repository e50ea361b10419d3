import type { CaseKind } from './case-kind.js';
import { authKind } from './kinds/auth.js';
import { conditionalKind } from './kinds/conditional.js';
import { effectsKind } from './kinds/effects.js';
import { httpKind } from './kinds/http.js';
import { idsKind } from './kinds/ids.js';
import { invalidBodiesKind } from './kinds/invalid-bodies.js';
import { mediaTypesKind } from './kinds/media-types.js';
import { paginationKind } from './kinds/pagination.js';
import { parametersKind } from './kinds/parameters.js';
import { validBodiesKind } from './kinds/valid-bodies.js';

/** Every kind of case the runner derives from the contract; a new kind is a new row. */
export const BUILT_IN_KINDS: readonly CaseKind[] = [
  validBodiesKind,
  invalidBodiesKind,
  mediaTypesKind,
  parametersKind,
  paginationKind,
  idsKind,
  effectsKind,
  conditionalKind,
  authKind,
  httpKind,
];
