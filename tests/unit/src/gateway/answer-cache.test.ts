import { AnswerCache, SharedAnswer } from '../../../../src/gateway/answer-cache';

// The cache of answers shared by every caller: kept per serving state, bounded in bytes.
const answer = (json: string) => new SharedAnswer(json, [['predictions', 1]]);

describe('AnswerCache', () => {
  it('keeps an answer with a validator of its text, under the state it was computed in', () => {
    const cache = new AnswerCache();
    const kept = cache.set('model 1, data a', 'PredictOne {"billId":1}', answer('{"a":1}'));
    expect(kept.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(cache.get('model 1, data a', 'PredictOne {"billId":1}')).toMatchObject({ json: '{"a":1}', charges: [['predictions', 1]] });
    expect(cache.get('model 1, data a', 'PredictOne {"billId":2}')).toBeUndefined();
  });

  it('serves nothing kept under another state, and drops everything when a new state stores', () => {
    const cache = new AnswerCache();
    cache.set('model 1, data a', 'k', answer('{"old":1}'));
    expect(cache.get('model 2, data a', 'k')).toBeUndefined();
    expect(cache.get('model 1, data b', 'k')).toBeUndefined();
    cache.set('model 2, data a', 'other', answer('{}'));
    expect(cache.size).toBe(1);
    expect(cache.get('model 1, data a', 'k')).toBeUndefined();
  });

  it('forgets the oldest answers past its size, and never keeps one larger than it', () => {
    const cache = new AnswerCache(10);
    cache.set('s', 'first', answer('12345'));
    cache.set('s', 'second', answer('12345'));
    cache.set('s', 'third', answer('123'));
    expect(cache.get('s', 'first')).toBeUndefined();
    expect(cache.get('s', 'second')).toBeDefined();
    expect(cache.get('s', 'third')).toBeDefined();
    expect(cache.set('s', 'huge', answer('x'.repeat(11))).json).toHaveLength(11);
    expect(cache.get('s', 'huge')).toBeUndefined();
  });
});
