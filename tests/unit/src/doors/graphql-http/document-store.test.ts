import { parse } from 'graphql';
import { boundedDocumentStore } from '../../../../../src/doors/graphql-http/document-store';

describe('the document store Apollo keeps parsed documents in', () => {
  it('keeps documents by key and forgets the least recently used past its bytes, counted by each text’s length', async () => {
    const store = boundedDocumentStore(64 * 1_000);
    const text = (i: number) => `{ a${i}: serviceStatus { ${'today '.repeat(30)}} }`;
    // Apollo sets a document each time it parses one: a document the store lets go of comes again
    for (let i = 0; i < 20; i++) for (let sighting = 0; sighting < 2; sighting++) await store.set(`k${i}`, parse(text(i)));
    // each text is about 200 characters: 64 × 200 bytes, so about five fit in 64,000
    const kept = (await Promise.all(Array.from({ length: 20 }, (_, i) => store.get(`k${i}`)))).filter(Boolean);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.length).toBeLessThanOrEqual(6);
    expect(await store.get('k19')).toBeDefined();
    expect(await store.get('k0')).toBeUndefined();
    await store.delete('k19');
    expect(await store.get('k19')).toBeUndefined();
  });

  it('keeps a document only when it comes again: a stream of unique documents leaves none behind', async () => {
    const store = boundedDocumentStore();
    for (let i = 0; i < 100; i++) await store.set(`unique${i}`, parse(`{ u${i}: serviceStatus { today } }`));
    const kept = await Promise.all(Array.from({ length: 100 }, (_, i) => store.get(`unique${i}`)));
    expect(kept.filter(Boolean)).toHaveLength(0);
    await store.set('unique7', parse('{ u7: serviceStatus { today } }'));
    expect(await store.get('unique7')).toBeDefined();
  });

  it('keeps nothing larger than its whole bound', async () => {
    const store = boundedDocumentStore(1_000);
    for (let sighting = 0; sighting < 2; sighting++) await store.set('big', parse(`{ ${'serviceStatus { today } '.repeat(10)}}`));
    expect(await store.get('big')).toBeUndefined();
  });
});
