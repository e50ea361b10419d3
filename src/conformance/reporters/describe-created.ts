import type { CreatedCount } from '../created-resources.js';
import type { RunResult } from '../run-result.js';
import { plural } from './plural.js';

/**
 * One line on what the run leaves on the target: how many resources its creates made, per collection, and
 * what --cleanup deleted of them. Undefined when it created nothing. Shared by the console, summary.md and
 * the HTML, so the three say the same.
 */
export function describeCreated(result: Pick<RunResult, 'created' | 'cleanup'>): string | undefined {
  const created = (result.created ?? []).filter((c) => c.count > 0);
  if (created.length === 0) return undefined;
  const made = created.map((c) => `${plural(c.count, 'record')} in ${c.path}`).join(', ');
  const left = (why: (c: CreatedCount) => boolean, what: string) => {
    const paths = created.filter((c) => !c.deletable && why(c)).map((c) => c.path);
    return paths.length === 0 ? '' : `; ${what} ${paths.join(', ')}: left on the target`;
  };
  // A count without `kept` is from a report written before the reason was kept: it named no delete alone.
  const undeletable =
    left((c) => c.kept !== 'no id', 'no delete in the contract for') +
    left((c) => c.kept === 'no id', 'no id read from the create answers for');
  const { cleanup } = result;
  if (cleanup === undefined) {
    const notCleaned = created.some((c) => c.deletable) ? '; --no-cleanup: left on the target' : '';
    return `Created ${made}${notCleaned}${undeletable}`;
  }
  const notDeleted = cleanup.failed === 0 ? 'none failed' : `${cleanup.failed} could not be deleted`;
  const gone = cleanup.gone === 0 ? '' : `, ${cleanup.gone} already gone`;
  return `Created ${made}; cleanup deleted ${plural(cleanup.deleted, 'record')}${gone}, ${notDeleted}${undeletable}`;
}
