import { decodeIdCursor, encodeIdCursor, isId, MAX_ID, parseIdText } from '../../../../src/common/ids';

describe('ids', () => {
  it('are positive 32-bit integers, as numbers or as text', () => {
    expect(isId(MAX_ID)).toBe(true);
    expect(isId(MAX_ID + 1)).toBe(false);
    expect(isId(0)).toBe(false);
    expect(parseIdText('2147483647')).toBe(MAX_ID);
    expect(parseIdText('2147483648')).toBeNull();
    expect(parseIdText('99999999999')).toBeNull();
    expect(parseIdText('12\u0000')).toBeNull();
  });
});

describe('id cursors', () => {
  it('give back the id they were made from', () => {
    expect(decodeIdCursor('bill', encodeIdCursor('bill', 2900))).toBe(2900);
    expect(decodeIdCursor('trigger', encodeIdCursor('trigger', MAX_ID))).toBe(MAX_ID);
  });

  it('refuse an id beyond 32 bits, another kind, and anything this API did not issue', () => {
    const raw = (text: string) => Buffer.from(text).toString('base64url');
    expect(decodeIdCursor('trigger', raw('trigger:9999999999'))).toBeNull();
    expect(decodeIdCursor('trigger', raw('trigger:2147483648'))).toBeNull();
    expect(decodeIdCursor('trigger', encodeIdCursor('bill', 5))).toBeNull();
    expect(decodeIdCursor('bill', raw('bill:5\u0000'))).toBeNull();
    expect(decodeIdCursor('bill', `${encodeIdCursor('bill', 5)}=`)).toBeNull();
    expect(decodeIdCursor('bill', 42)).toBeNull();
  });
});
