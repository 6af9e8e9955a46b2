// Goal: generated bank data true to the world, checked against sources independent of the code under test.
// - Targeting never substitutes: "ING Bank" on NL gives ING only, a name that matches nothing is 404
//   target_no_match, and /bank-intelligence/search ranks the same bank first.
// - City targeting takes "München", "Munchen", "Muenchen" and the English names "Munich" and "Cologne" alike; the
//   place an English name stands for is read here from the GeoNames files the packages ship
//   (test/helpers/geonames-places.ts), and the banks expected there from the Bundesbank file.
// - 1,000 German rows with bank details use live customer codes only: none that the Bundesbank file itself (read
//   here by fixed positions, not through the importer) flags D, marks for deletion, gives a successor, or names as
//   an internal ITGK/settlement code without a PAN, and none that bankdata-germany's newer set removes (read from
//   the package's next.json). Every code is a Merkmal-1 bank code.
// - After importing the OeNB and SIX files, city targeting works in Austria and Switzerland, exonyms included
//   ("Vienna", "Geneva": every bank of the place, whichever of its names or post offices the SIX file writes);
//   Belgium, Italy and Portugal, whose registry sources give no city, answer 404 to "Brussels", "Milan", "Lisbon".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { needsShared, readShared } from '../fixtures/registry/paths.js';
import { geonamesPlaces, placesCalled, plainSpelling } from '../helpers/geonames-places.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

const require = createRequire(import.meta.url);

interface MainRecord {
  readonly name: string;
  readonly city: string;
  readonly pan: string;
  readonly flag: string;
  readonly deletion: string;
  readonly successor: string;
}

/** Merkmal-1 records of the Bundesbank release of the embedded table, by fixed positions (README of ../shared). */
function bundesbankMain(): Map<string, MainRecord> {
  const main = new Map<string, MainRecord>();
  const text = new TextDecoder().decode(readShared('bundesbank-blz/2025-09-08/bundesbank.txt'));
  for (const line of text.split('\r\n')) {
    if (line.charAt(8) !== '1') continue;
    const cut = (from: number, width: number) => line.slice(from - 1, from - 1 + width).trim();
    main.set(cut(1, 8), {
      name: cut(10, 58),
      city: cut(73, 35),
      pan: cut(135, 5),
      flag: cut(159, 1),
      deletion: cut(160, 1),
      successor: cut(161, 8),
    });
  }
  return main;
}

/** Why the Bundesbank file says a customer account cannot have this code today, or null. */
function notLive(record: MainRecord): string | null {
  if (record.flag === 'D') return 'D';
  if (record.deletion === '1') return 'marked for deletion';
  if (record.successor !== '00000000') return 'successor';
  if (/ITGK|Settlement|\bG[fF]\b|Geschäftsfeld/.test(record.name) && record.pan === '')
    return 'internal';
  return null;
}

function bankdataRemoved(): string[] {
  const root = join(dirname(require.resolve('bankdata-germany')), '..', '..');
  const next = JSON.parse(readFileSync(join(root, 'dist/cjs/data/next.json'), 'utf8')) as {
    remove: string[];
  };
  return next.remove;
}

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.dispose();
});

const generate = (body: Record<string, unknown>) =>
  call(service.base, '/generate', { key: service.keys.business, body });

/** 100 rows targeted at a city (seed "city"), after checking the answer is 200. */
async function targetCity(country: string, city: string): Promise<any[]> {
  const reply = await generate({ country, quantity: 100, seed: 'city', targeting: { city } });
  assert.equal(reply.status, 200, `${country} ${city}: ${reply.text}`);
  return reply.body;
}

describe('bank-name targeting and search share one matcher that never substitutes', () => {
  test('"ING Bank" and "ING" on NL give ING only; an unknown name is 404 target_no_match', async () => {
    for (const bank of ['ING Bank', 'ING', 'ing bank n.v.']) {
      const reply = await generate({
        country: 'NL',
        quantity: 20,
        seed: 'ing',
        targeting: { bank },
      });
      assert.equal(reply.status, 200, reply.text);
      const names = new Set(reply.body.map((row: any) => row.bank_name));
      assert.deepEqual([...names], ['ING'], `${bank}: ${[...names].join(', ')}`);
      assert.ok(reply.body.every((row: any) => row.bank_match === 'matched'));
    }
    const abn = await generate({
      country: 'NL',
      quantity: 20,
      seed: 'abn',
      targeting: { bank: 'ABN AMRO' },
    });
    assert.ok(
      abn.body.every((row: any) => /^ABN AMRO/i.test(row.bank_name)),
      abn.text,
    );
    const none = await generate({
      country: 'NL',
      quantity: 5,
      targeting: { bank: 'Nonexistent Bank' },
    });
    assert.equal(none.status, 404, none.text);
    assert.equal(none.body.error, 'target_no_match');
  });

  test('/bank-intelligence/search ranks ING first for "ING Bank" and never lists INSINGERGILISSEN', async () => {
    const reply = await call(service.base, '/bank-intelligence/search', {
      key: service.keys.business,
      body: { query: 'ING Bank', country_code: 'NL', limit: 10 },
    });
    assert.equal(reply.status, 200, reply.text);
    const names = reply.body.results.map((record: any) => record.legal_name ?? record.short_name);
    assert.equal(names[0], 'ING', names.join(', '));
    assert.ok(!names.some((name: string) => /INSINGER|CLEARING/i.test(name)), names.join(', '));
  });
});

describe('German generation uses live customer codes only', { skip: needsShared }, () => {
  const main = needsShared ? new Map<string, MainRecord>() : bundesbankMain();

  test('1,000 rows with bank details: no deleted, marked, successor, internal or removed code', async () => {
    const rows: any[] = [];
    // /generate answers at most 100 rows a call: ten seeds make the thousand.
    for (let part = 0; part < 10; part++) {
      const reply = await generate({
        country: 'DE',
        quantity: 100,
        seed: `live-${part}`,
        include_bank_details: true,
      });
      assert.equal(reply.status, 200, reply.text);
      rows.push(...reply.body);
    }
    const removed = new Set(bankdataRemoved());
    const bad: string[] = [];
    for (const row of rows) {
      const record = main.get(row.bank_code);
      if (record === undefined) bad.push(`${row.bank_code}: not a Merkmal-1 code`);
      else if (notLive(record) !== null) bad.push(`${row.bank_code}: ${notLive(record)}`);
      if (removed.has(row.bank_code)) bad.push(`${row.bank_code}: removed by bankdata-germany`);
    }
    assert.deepEqual(bad, []);
    // The rule leaves most banks live: the draw still spreads over many banks.
    assert.equal(rows.length, 1_000);
    assert.ok(new Set(rows.map((row: any) => row.bank_code)).size > 500);
  });

  test('"München", "Munchen", "Muenchen", "Munich"; "Köln" and "Cologne" target the banks of the place', async () => {
    const places = geonamesPlaces(['DE']);
    for (const [local, spellings] of [
      ['München', ['München', 'Munchen', 'Muenchen', 'MUENCHEN', 'Munich']],
      ['Köln', ['Köln', 'Cologne']],
    ] as const) {
      // The English name names exactly one German place, and the Bundesbank's spelling is one of its names.
      const [place, ...others] = placesCalled(places, 'DE', spellings[spellings.length - 1] ?? '');
      assert.deepEqual(others, []);
      assert.deepEqual(placesCalled(places, 'DE', local), [place]);
      const live = [...main].filter(
        ([, record]) => record.city === local && notLive(record) === null,
      );
      assert.ok(live.length > 10, local);
      const inPlace = new Set(live.map(([code]) => code));
      for (const city of spellings) {
        const rows = await targetCity('DE', city);
        assert.ok(
          rows.every((row: any) => row.bank_city === local),
          city,
        );
        // The targeting text is part of the seed, so the rows differ; every code is a live bank of the place.
        assert.deepEqual(
          rows.map((row: any) => row.bank_code).filter((code: string) => !inPlace.has(code)),
          [],
          city,
        );
      }
    }
    const nowhere = await generate({ country: 'DE', quantity: 5, targeting: { city: 'Atlantis' } });
    assert.equal(nowhere.status, 404, nowhere.text);
    assert.equal(nowhere.body.error, 'target_no_match');
  });
});

describe('cities beyond Germany from the OeNB and SIX files', { skip: needsShared }, () => {
  test('Austria: "Wien", "Vienna"; Switzerland: "Zürich", "Geneva", "Genf"; BE, IT, PT know no cities (404)', async () => {
    await importIntoRegistry(service.dataDir, [
      {
        file: {
          sourceId: 'oenb-sepa',
          bytes: readShared('oenb-sepa-verzeichnis/2025-09-22/at.csv'),
          fileName: 'at.csv',
          snapshotDate: '2025-09-22',
        },
      },
      {
        file: {
          sourceId: 'six-bankenstamm',
          bytes: readShared('six-bankenstamm/2025-10-06/ch.xlsx'),
          fileName: 'ch.xlsx',
          snapshotDate: '2025-10-06',
        },
      },
    ]);
    for (const [country, cities, expected] of [
      ['AT', ['Wien', 'WIEN', 'Vienna'], 'Wien'],
      ['CH', ['Zürich', 'Zurich', 'Zuerich'], 'Zürich'],
    ] as const) {
      for (const city of cities) {
        const reply = await generate({ country, quantity: 30, seed: 'city', targeting: { city } });
        assert.equal(reply.status, 200, `${country} ${city}: ${reply.text}`);
        assert.ok(
          reply.body.every((row: any) => plainSpelling(row.bank_city) === plainSpelling(expected)),
          `${country} ${city}: ${reply.body.map((row: any) => row.bank_city).join(', ')}`,
        );
      }
    }
    await genevaByAnyName();
    for (const [country, city] of [
      ['BE', 'Brussels'],
      ['BE', 'Bruxelles'],
      ['BE', 'Brussel'],
      ['IT', 'Milan'],
      ['PT', 'Lisbon'],
    ] as const) {
      const reply = await generate({ country, quantity: 5, targeting: { city } });
      assert.equal(reply.status, 404, `${country} ${city}: ${reply.text}`);
    }
    const rows = await generate({
      country: 'BE',
      quantity: 5,
      seed: 'be',
      include_bank_details: true,
    });
    assert.ok(
      rows.body.every((row: any) => row.bank_city === null),
      rows.text,
    );
  });
});

/**
 * "Geneva", "Genève" and "Genf" target the same banks: those whose SIX city is one of the names GeoNames gives
 * the one Swiss place called Geneva, with or without the number of a post office ("Genève 2").
 */
async function genevaByAnyName(): Promise<void> {
  const places = geonamesPlaces(['CH']);
  const [geneva, ...others] = placesCalled(places, 'CH', 'Geneva');
  assert.deepEqual(others, []);
  const names = new Set(
    places.find((place) => place.id === geneva)?.names.map(plainSpelling) ?? [],
  );
  for (const city of ['Geneva', 'Genève', 'Genf']) {
    const rows = await targetCity('CH', city);
    const cities = rows.map((row: any) => plainSpelling(row.bank_city).replace(/( \d+)+$/, ''));
    assert.deepEqual(
      cities.filter((name: string) => !names.has(name)),
      [],
      city,
    );
    // More than the registry's own spelling of the query: "Geneva" also reaches the banks written "Genève 2".
    assert.ok(new Set(rows.map((row: any) => row.bank_city)).size > 2, city);
  }
}
