import { readBody } from '../connection/read-body.js';
import type { Stage } from './stage.js';

/** The admin endpoint route found: it answers, and none of the contract's stages (key, Prefer, body) apply. */
export const answerAdmin: Stage = (state, { admin }) => {
  const adminRoute = state.adminRoute;
  if (adminRoute === undefined) return undefined;
  const { req } = state;
  return adminRoute(admin.context, {
    query: new URLSearchParams(state.query),
    headers: req.headers,
    body: () => readBody(req, state.res, ADMIN_BODY_BYTES),
  });
};

// A rule is a few hundred bytes of JSON.
const ADMIN_BODY_BYTES = 64 * 1024;
