import { ChargeLedger } from '../../../../src/quota/charge-ledger';

// Predictions charged equal predictions the response shows: what never reached the response is given back.
describe('ChargeLedger', () => {
  it('gives back everything when the request failed as a whole (data null)', () => {
    const ledger = new ChargeLedger();
    ledger.charged('2900@2021-12-31', 'predictions', 1, ['prediction']);
    ledger.charged('batch', 'batches', 1, ['predictions']);
    expect(ledger.notShown(null)).toEqual(new Map([['predictions', 1], ['batches', 1]]));
    expect(ledger.notShown(null)).toEqual(new Map()); // forgotten once given back
  });

  it('keeps what reached the response at any of its places (a bill under two aliases), gives back what was nulled', () => {
    const ledger = new ChargeLedger();
    ledger.charged('2900', 'predictions', 1, ['a']);
    ledger.shownAt('2900', ['b']);
    ledger.charged('26', 'predictions', 1, ['c', 'items', 0]);
    ledger.charged('27', 'predictions', 1, ['c', 'items', 1]);
    const data = { a: null, b: { royalAssent: 0.4 }, c: { items: [{ billId: 26 }, null] } };
    expect(ledger.notShown(data)).toEqual(new Map([['predictions', 1]]));
  });

  it('adds units charged twice under one id, and ignores nothing charged or a charge given back by its caller', () => {
    const ledger = new ChargeLedger();
    ledger.charged('x', 'predictions', 2);
    ledger.charged('x', 'predictions', 3);
    ledger.charged('none', 'predictions', 0, ['n']);
    ledger.charged('mine', 'batches', 1);
    ledger.forget('mine');
    expect(ledger.notShown({})).toEqual(new Map([['predictions', 5]]));
  });
});
