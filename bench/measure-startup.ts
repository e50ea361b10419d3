import type { BenchSettings } from './bench-settings.js';
import { median } from './median.js';
import { spawnServer } from './spawn-server.js';
import { TARGETS, type TargetId } from './targets.js';

export interface StartupRow {
  readonly target: TargetId;
  /** From spawning the process to the first answered request, in ms: median and every round. */
  readonly medianMs: number;
  readonly roundsMs: readonly number[];
}

/** Each target started and stopped `rounds` times, alternating, with nothing else running. */
export async function measureStartup(settings: BenchSettings, progress: (line: string) => void): Promise<StartupRow[]> {
  const ids: readonly TargetId[] = ['ours', 'prism', 'ceiling'];
  const times = new Map<TargetId, number[]>(ids.map((id) => [id, []]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const id of ids) {
      const server = await spawnServer(TARGETS[id].command);
      await server.stop();
      times.get(id)?.push(server.startupMs);
      progress(`round ${round + 1}/${settings.rounds} start-up ${TARGETS[id].title}: ${Math.round(server.startupMs)} ms`);
    }
  }
  return ids.map((target) => {
    const roundsMs = times.get(target) ?? [];
    return { target, medianMs: median(roundsMs), roundsMs };
  });
}
