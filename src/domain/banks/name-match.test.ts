import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchName, nameQuery, nameWords } from './name-match.js';

describe('bank-name matcher', () => {
  it('normalises case, diacritics, "&"/"and" and legal forms', () => {
    assert.deepEqual(nameWords('ABN AMRO Clearing Bank N.V.'), ['ABN', 'AMRO', 'CLEARING', 'BANK']);
    assert.deepEqual(nameWords('Banca Popolare S.p.A.'), ['BANCA', 'POPOLARE']);
    assert.deepEqual(nameWords('Raiffeisenbank Gmünd e.G.'), ['RAIFFEISENBANK', 'GMUND']);
    assert.deepEqual(nameWords('Smith & Williamson'), nameWords('Smith and Williamson'));
    assert.deepEqual(nameWords('Łódzki Bank'), ['LODZKI', 'BANK']);
  });

  it('ranks exact > all words > core words > prefix, and never matches a substring', () => {
    const ingBank = nameQuery('ING Bank');
    assert.equal(matchName(ingBank, 'ING Bank N.V.'), 'exact');
    assert.equal(matchName(ingBank, 'ING Bank Śląski'), 'all_words');
    assert.equal(matchName(ingBank, 'ING'), 'core_words');
    assert.equal(matchName(ingBank, 'ABN AMRO Clearing Bank N.V.'), undefined);
    assert.equal(matchName(nameQuery('ING'), 'INSINGERGILISSEN'), undefined);
    assert.equal(matchName(nameQuery('Deutsche Ba'), 'Deutsche Bank'), 'prefix');
    assert.equal(matchName(nameQuery('Deutsche Bank'), 'Deutsche Bundesbank'), undefined);
  });

  it('a query of generic words only still needs those words', () => {
    assert.equal(matchName(nameQuery('Bank'), 'ING'), undefined);
    assert.equal(matchName(nameQuery('Bank'), 'Bank Millennium'), 'all_words');
  });
});
