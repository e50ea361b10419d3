import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { libraryFixtures } from './library-scenarios.js';
import { type SpawnedServer, spawnServer } from './spawn-server.js';
import { libraryMockCommand } from './targets.js';

/**
 * The mock serving the library contract with `authors` seeded authors: written to a fixtures file of its own, which
 * the mock loads at start and restores on /__admin/reset, so every run starts from all of them. The file goes
 * with the server.
 */
export async function spawnLibraryMock(authors: number): Promise<SpawnedServer> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-library-'));
  try {
    const fixtures = join(dir, 'authors.json');
    await writeFile(fixtures, libraryFixtures(authors));
    const server = await spawnServer(libraryMockCommand(fixtures, authors));
    return {
      ...server,
      stop: async () => {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
