// Goal: the compact tables in data/ are what their manifest says (rebuilt from the publisher files in ../shared,
// byte for byte), carry the columns the service needs, and make a fresh registry know real banks without any
// import: German bank codes with city, BIC and check method, and about 45 countries from schwifty. A publisher
// file imported later supersedes the embedded table with change events as usual.
// Expected values are read from the publisher files themselves (a second reading written in this test).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { needsShared, readShared, sharedSources } from '../../test/fixtures/registry/paths.js';
import { embeddedManifest, embeddedTableSnapshots } from './embedded-tables.js';
import { buildBundesbankTable, buildSchwiftyTable } from './embedded-tables-build.js';
import { LmdbDirectory } from './lmdb-directory.js';
import { ensureEmbeddedDefault } from './store/embedded.js';
import { diffSnapshots } from './diff.js';
import { importFile, parseSourceFile } from './store/import-file.js';
import { RegistryStore } from './store/registry-store.js';
import { createHash } from 'node:crypto';

const dirs: string[] = [];
function freshStore(): RegistryStore {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-tables-'));
  dirs.push(dir);
  return RegistryStore.openWriter(dir);
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const manifest = embeddedManifest();
const [bundesbank, schwifty] = embeddedTableSnapshots();

/** The Bundesbank file read a second way: fixed positions straight from the README's record layout. */
function bundesbankLines(path: string): Map<string, Record<string, string>> {
  const byKey = new Map<string, Record<string, string>>();
  for (const line of Buffer.from(readShared(path))
    .toString('utf8')
    .split('\r\n')
    .filter((l) => l !== '')) {
    const cut = (from: number, width: number) => line.slice(from - 1, from - 1 + width).trim();
    const blz = cut(1, 8);
    const merkmal = cut(9, 1);
    const nr = cut(153, 6);
    byKey.set(merkmal === '1' ? blz : `${blz}-${nr}`, {
      name: cut(10, 58),
      plz: cut(68, 5),
      ort: cut(73, 35),
      bic: cut(140, 11),
      method: cut(151, 2),
      loeschung: cut(160, 1),
      nachfolge: cut(161, 8),
    });
  }
  return byKey;
}

describe('the shipped tables', () => {
  it('match the manifest: date, licence, attribution, rows', () => {
    assert.equal(manifest['bundesbank-blz'].snapshot_date, '2025-09-08');
    assert.equal(manifest['bundesbank-blz'].valid_until, '2025-12-07');
    assert.equal(manifest['bundesbank-blz'].publisher, 'Deutsche Bundesbank');
    assert.match(manifest['bundesbank-blz'].license, /Source: Deutsche Bundesbank/);
    assert.match(manifest.schwifty.license, /MIT, Copyright \(c\) 2021 Martin Domke/);
    assert.match(
      readFileSync(new URL('../../data/LICENSE-schwifty', import.meta.url), 'utf8'),
      /Copyright \(c\) 2021 Martin Domke/,
    );
    assert.equal(bundesbank?.row_count, manifest['bundesbank-blz'].rows);
    assert.equal(schwifty?.row_count, manifest.schwifty.rows);
    assert.ok(
      manifest.schwifty.countries.length >= 40,
      `${manifest.schwifty.countries.length} countries`,
    );
  });

  it('hold no placeholder row as a bank', () => {
    assert.ok(
      schwifty?.records.every(
        (r) => !/^(VRIJ|LIBRE|Onbeschikbaar|Indisponible)$/i.test(r.legal_name ?? ''),
      ),
    );
    assert.equal(
      schwifty?.records.some((r) => r.record_key === 'BE:539'),
      false,
    );
  });
});

describe('the shipped tables against the publisher files', { skip: needsShared }, () => {
  it('rebuild byte for byte from ../shared (the script is the way to regenerate them)', () => {
    assert.equal(
      sha256(buildBundesbankTable(readShared('bundesbank-blz/2025-09-08/bundesbank.txt')).bytes),
      manifest['bundesbank-blz'].sha256,
    );
    assert.equal(
      sha256(buildSchwiftyTable(join(sharedSources, 'schwifty-bank-registry')).bytes),
      manifest.schwifty.sha256,
    );
  });

  it('Bundesbank table: every record with the published name, postal code, city, BIC, method, deletion flag and successor', () => {
    const expected = bundesbankLines('bundesbank-blz/2025-09-08/bundesbank.txt');
    assert.equal(bundesbank?.records.length, expected.size);
    for (const record of bundesbank?.records ?? []) {
      const line = expected.get(record.record_key);
      assert.ok(line, record.record_key);
      assert.deepEqual(
        [
          record.legal_name,
          record.address.postal_code,
          record.address.city,
          record.bic ?? '',
          record.account_checksum_method,
          record.deletion_planned ? '1' : '0',
          record.successor?.value ?? '00000000',
        ],
        [line.name, line.plz, line.ort, line.bic, line.method, line.loeschung, line.nachfolge],
        record.record_key,
      );
    }
  });

  it('schwifty table: the primary entry of every bank code, with its name and BIC', () => {
    const dir = join(sharedSources, 'schwifty-bank-registry');
    const byKey = new Map(schwifty?.records.map((r) => [r.record_key, r]));
    let checked = 0;
    // A few codes have two primary entries (RO); the first one in the file is the one kept.
    const firstPrimary = new Set<string>();
    for (const file of readdirSync(dir).filter(
      (f) => f.startsWith('generated_') && !f.includes('.v2.'),
    )) {
      for (const entry of JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
        bank_code: string;
        name: string;
        bic: string;
        primary: boolean;
        country_code: string;
        checksum_algo?: string;
      }[]) {
        if (
          !entry.primary ||
          entry.bank_code === '' ||
          firstPrimary.has(`${entry.country_code}:${entry.bank_code}`)
        )
          continue;
        firstPrimary.add(`${entry.country_code}:${entry.bank_code}`);
        const record = byKey.get(`${entry.country_code}:${entry.bank_code}`);
        assert.ok(record, `${entry.country_code}:${entry.bank_code}`);
        if (record.fields.primary !== '1') continue;
        checked++;
        assert.equal(record.legal_name, entry.name.replace(/\s+/g, ' ').trim());
        assert.equal(record.bic ?? '', (entry.bic ?? '').length >= 8 ? entry.bic : '');
        if (entry.country_code === 'DE')
          assert.equal(record.account_checksum_method, entry.checksum_algo);
      }
    }
    assert.ok(checked > 5_000, `${checked} entries checked`);
  });
});

describe('a fresh registry knows real banks without any import', () => {
  let store: RegistryStore;
  let directory: LmdbDirectory;
  before(() => {
    store = freshStore();
    ensureEmbeddedDefault(store, new Date('2026-11-24T00:00:00Z'));
    directory = new LmdbDirectory(store);
  });

  it('German bank codes carry city, BIC and the Bundesbank check method; Berlin has banks', () => {
    const bank = directory.bankOf('DE', '10050000');
    assert.deepEqual(
      [bank?.city, bank?.bic, bank?.accountCheckMethod, bank?.sourceId],
      ['Berlin', 'BELADEBEXXX', 'B8', 'bundesbank-blz'],
    );
    assert.ok(directory.banksMatching('DE', { city: 'Berlin' }, 1_000).length > 10);
    const codes = directory.bankCodesOf('DE');
    assert.ok(codes.length > 3_500);
    assert.ok(
      codes.every((code) => /^[1-9]\d{7}$/.test(code)),
      'no German bank code starts with 0',
    );
  });

  it('schwifty countries are known: names and BICs as published, no placeholders', () => {
    for (const country of [
      'AT',
      'BE',
      'CH',
      'ES',
      'FR',
      'IT',
      'NL',
      'PL',
      'NO',
      'FI',
      'SE',
      'CZ',
      'SK',
      'SI',
      'HU',
      'LT',
      'PT',
      'GB',
    ]) {
      assert.ok(directory.bankCodesOf(country).length > 0, country);
    }
    assert.equal(directory.bankOf('BE', '539'), undefined);
    assert.equal(directory.bankOf('BE', '001')?.bic, 'GEBABEBB');
  });

  it(
    'the same Bundesbank release as a full file differs from the table only in what the table leaves out',
    { skip: needsShared },
    () => {
      const full = parseSourceFile(
        'bundesbank-blz',
        readShared('bundesbank-blz/2025-09-08/bundesbank.txt'),
        '2025-09-08',
      );
      const diff = diffSnapshots(bundesbank!, full);
      assert.deepEqual(
        [diff.added.length, diff.removed.length, diff.modified.length],
        [0, 0, 0],
        'short name, PAN and the release flag are not changes',
      );
    },
  );

  it(
    'a newer publisher file supersedes the embedded table with change events by bank code; an older one is refused',
    { skip: needsShared },
    () => {
      const text = Buffer.from(readShared('bundesbank-blz/2025-09-08/bundesbank.txt')).toString(
        'utf8',
      );
      const renamed = text.replace(
        '100500001BSK 1818 - Berliner Sparkasse    ',
        '100500001BSK 1818 - Berliner Sparkasse NEU',
      );
      assert.notEqual(renamed, text);
      const summary = importFile(store, {
        sourceId: 'bundesbank-blz',
        bytes: Buffer.from(renamed, 'utf8'),
        fileName: 'x',
        snapshotDate: '2025-12-08',
      });
      assert.deepEqual(summary.changes, { added: 0, removed: 0, modified: 1 });
      const [event] = store.events({ sourceId: 'bundesbank-blz', limit: 10 });
      assert.deepEqual(
        [event?.record_key, event?.changes],
        [
          '10050000',
          [
            {
              field: 'name',
              before: 'BSK 1818 - Berliner Sparkasse',
              after: 'BSK 1818 - Berliner Sparkasse NEU',
            },
          ],
        ],
      );
      assert.equal(store.source('bundesbank-blz')?.origin, 'publisher');
      assert.equal(directory.bankOf('DE', '10050000')?.name, 'BSK 1818 - Berliner Sparkasse NEU');
      assert.throws(
        () =>
          importFile(store, {
            sourceId: 'bundesbank-blz',
            bytes: readShared('bundesbank-blz/2025-06-09/bundesbank.txt'),
            fileName: 'x',
            snapshotDate: '2025-06-09',
          }),
        /before the current snapshot/,
      );
    },
  );
});
