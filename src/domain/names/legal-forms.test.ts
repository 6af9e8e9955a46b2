// The legal-form table against GLEIF's own records: the golden-copy excerpt in ../shared/registry-sources names each
// entity's ISO 20275 ELF code next to its legal name, so a name ending in a table form must carry the table's code.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readShared, skipWithoutShared } from '../../../test/helpers/shared.js';
import { legalFormTable, splitLegalForm } from './legal-forms.js';
import { nameKeys } from './normalize.js';

interface GleifRecord {
  readonly Entity: {
    readonly LegalName: { readonly $: string };
    readonly LegalJurisdiction?: { readonly $: string };
    readonly LegalForm?: { readonly EntityLegalFormCode?: { readonly $: string } };
  };
}

/** Upper case, marks and dots removed, other punctuation as space: written here, apart from normalize.ts. */
function plain(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[.']/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

describe('legal forms (GLEIF ISO 20275 ELF codes)', () => {
  it('has one entry per country and code, four-character codes, a short and a full form', () => {
    const keys = legalFormTable.map((form) => `${form.country}:${form.elf}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const form of legalFormTable) {
      assert.match(form.elf, /^[A-Z0-9]{4}$/);
      assert.match(form.country, /^[A-Z]{2}$/);
      assert.notEqual(plain(form.short), plain(form.full));
    }
  });

  it(
    'agrees with the ELF codes GLEIF records carry for names ending in a table form',
    skipWithoutShared,
    () => {
      const file = 'gleif/20240505-0000-gleif-goldencopy-lei2-intra-day.json';
      const { records } = JSON.parse(readShared(file).toString('utf8')) as {
        records: GleifRecord[];
      };
      let agree = 0;
      const disagree: string[] = [];
      for (const { Entity: entity } of records) {
        const name = plain(entity.LegalName.$);
        const country = entity.LegalJurisdiction?.$;
        const code = entity.LegalForm?.EntityLegalFormCode?.$;
        const form = legalFormTable.find(
          (candidate) =>
            candidate.country === country &&
            [candidate.short, candidate.full].some((text) => name.endsWith(` ${plain(text)}`)),
        );
        if (form === undefined) continue;
        if (form.elf === code) agree += 1;
        else disagree.push(`${entity.LegalName.$}: ${code} (table ${form.elf})`);
      }
      // Real names are not always unambiguous (an Italian sole-member S.R.L. has a code of its own): a few may differ.
      assert.ok(agree >= 100, `${agree} agreeing records`);
      assert.ok(disagree.length <= agree / 20, disagree.join('; '));
    },
  );

  it('lets the matcher set both spellings of every form aside', () => {
    for (const form of legalFormTable) {
      for (const text of [form.short, form.full]) {
        const key = nameKeys(`Kowalczyk Transport ${text}`)[0] as string;
        assert.equal(splitLegalForm(key).core, 'KOWALCZYK TRANSPORT', `${form.country} ${text}`);
      }
    }
  });
});
