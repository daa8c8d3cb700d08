import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestStore } from './testStore';

// Seeded stores are copies of one template per configuration, shared by every file of the run:
// a second file (a module registry of its own, as Jest gives each) copies the first one's
// template instead of seeding again; each copy is the store's own.

type StoreModule = typeof import('./testStore');

/** testStore.ts as another test file of the run loads it. */
function anotherFile(): StoreModule {
  let loaded: StoreModule | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<StoreModule>('./testStore');
  });
  if (!loaded) throw new Error('testStore.ts did not load');
  return loaded;
}

const opened: TestStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

it('seeds a configuration once for every file of the run, and hands out copies', async () => {
  let seeds = 0;
  const key = `testStore.test ${Date.now()} ${Math.random()}`;
  const seedInto = async (env: TestStore['env']) => {
    seeds += 1;
    writeFileSync(path.join(env.DATA_DIR, 'seeded.txt'), 'from the seed');
  };

  const first = await anotherFile().seededTestStore(key, seedInto);
  const second = await anotherFile().seededTestStore(key, seedInto);
  opened.push(first, second);

  expect(seeds).toBe(1);
  for (const store of [first, second]) {
    expect(readFileSync(path.join(store.dataDir, 'seeded.txt'), 'utf8')).toBe('from the seed');
  }
  expect(second.dataDir).not.toBe(first.dataDir);
  writeFileSync(path.join(first.dataDir, 'seeded.txt'), 'changed by a test');
  expect(readFileSync(path.join(second.dataDir, 'seeded.txt'), 'utf8')).toBe('from the seed');

  // Another configuration has a template of its own.
  const other = await anotherFile().seededTestStore(`${key} other`, seedInto);
  opened.push(other);
  expect(seeds).toBe(2);
});

it('keeps no half-made template: a seed that fails is tried again by the next file', async () => {
  const key = `testStore.test failing ${Date.now()} ${Math.random()}`;
  let seeds = 0;
  const failing = async () => {
    seeds += 1;
    throw new Error('the seed failed');
  };
  await expect(anotherFile().seededTestStore(key, failing)).rejects.toThrow('the seed failed');

  const store = await anotherFile().seededTestStore(key, async (env) => {
    seeds += 1;
    writeFileSync(path.join(env.DATA_DIR, 'seeded.txt'), 'second try');
  });
  opened.push(store);
  expect(seeds).toBe(2);
  expect(existsSync(path.join(store.dataDir, 'seeded.txt'))).toBe(true);
});
