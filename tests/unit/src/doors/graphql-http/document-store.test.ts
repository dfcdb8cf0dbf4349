import { parse } from 'graphql';
import { boundedDocumentStore } from '../../../../../src/doors/graphql-http/document-store';

describe('the document store Apollo keeps parsed documents in', () => {
  it('keeps documents by key and forgets the least recently used past its bytes, counted by each text’s length', async () => {
    const store = boundedDocumentStore(64 * 1_000);
    const text = (i: number) => `{ a${i}: serviceStatus { ${'today '.repeat(30)}} }`;
    for (let i = 0; i < 20; i++) await store.set(`k${i}`, parse(text(i)));
    // each text is about 200 characters: 64 × 200 bytes, so about five fit in 64,000
    const kept = (await Promise.all(Array.from({ length: 20 }, (_, i) => store.get(`k${i}`)))).filter(Boolean);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.length).toBeLessThanOrEqual(6);
    expect(await store.get('k19')).toBeDefined();
    expect(await store.get('k0')).toBeUndefined();
    await store.delete('k19');
    expect(await store.get('k19')).toBeUndefined();
  });

  it('keeps nothing larger than its whole bound', async () => {
    const store = boundedDocumentStore(1_000);
    await store.set('big', parse(`{ ${'serviceStatus { today } '.repeat(10)}}`));
    expect(await store.get('big')).toBeUndefined();
  });
});
