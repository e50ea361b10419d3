// The mock with a given number of stored pets, seeded in-process through its programmatic API before it answers
// anything: `node dist/bench/seeded-mock.js <pets> <port>`. Statuses and categories cycle, so that each status
// holds a third of the pets.
import { createMockServer } from '../src/mock/create-mock-server.js';
import { PET_STATUSES } from '../src/mock/pet-store.js';

const count = Number(process.argv[2]);
const mock = await createMockServer({ port: Number(process.argv[3] ?? 0), fixtures: false, maxPets: count, log: undefined });
// Synchronous, so no request is answered before the store is full.
for (let i = 0; i < count; i++) {
  mock.store.create({ name: `pet-${i}`, categoryId: (i % 50) + 1, status: PET_STATUSES[i % PET_STATUSES.length] });
}
process.once('SIGTERM', () => mock.close().then(() => process.exit(0)));
