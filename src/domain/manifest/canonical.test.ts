import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64url, fromBase64url, jcsBytes } from './canonical.js';

describe('RFC 8785 canonical bytes', () => {
  it("reproduces the RFC's own example (section 3.2.2 input, 3.2.3 output)", () => {
    const input =
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], ' +
      '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}';
    const expected =
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
      '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    assert.equal(jcsBytes(JSON.parse(input)).toString('utf8'), expected);
  });

  it('sorts members by UTF-16 code units (RFC 8785 section 3.2.3 sorting example)', () => {
    const value = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // The RFC's expected order of the values (JSON.parse would reorder the integer-like key "1", so read the text).
    const text = jcsBytes(value).toString('utf8');
    const expected = [
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ];
    const positions = expected.map((name) => text.indexOf(`"${name}"`));
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
    assert.ok(positions.every((position) => position > 0));
  });

  it('base64url round-trips and refuses padding, other alphabets and non-canonical tails', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0x01]);
    assert.equal(base64url(bytes), '-_8B');
    assert.deepEqual(fromBase64url('-_8B'), bytes);
    assert.equal(fromBase64url('+/8B'), undefined);
    assert.equal(fromBase64url('AQ=='), undefined);
    assert.equal(
      fromBase64url('AR'),
      undefined,
      'AR decodes to the same byte as AQ: not canonical',
    );
  });
});
