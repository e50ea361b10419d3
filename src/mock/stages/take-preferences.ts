import { choosePreferences } from '../prefer/choose-preferences.js';
import type { Stage } from './stage.js';

/** Prefer and the runtime rules, read once the caller is known (prefer/choose-preferences.ts). */
export const takePreferences: Stage = (state, mock) => {
  choosePreferences(state, mock);
  return undefined;
};
