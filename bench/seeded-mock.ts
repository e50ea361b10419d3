// The mock with a given number of stored pets, seeded in-process through its programmatic API before it answers
// anything: `node dist/bench/seeded-mock.js <pets> <port>`. Statuses and categories cycle, so that each status
// holds a third of the pets.
import { createMockServer } from '../src/mock/create-mock-server.js';

const count = Number(process.argv[2]);
const mock = await createMockServer({ port: Number(process.argv[3] ?? 0), fixtures: false, maxPets: count, log: undefined });
const PET_STATUSES = ['available', 'pending', 'sold'];
const { store } = mock;
// Synchronous, so no request is answered before the store is full.
for (let i = 0; i < count; i++) {
  store.create({ name: `pet-${i}`, categoryId: (i % 50) + 1, status: PET_STATUSES[i % PET_STATUSES.length] });
}
process.once('SIGTERM', () => mock.close().then(() => process.exit(0)));
