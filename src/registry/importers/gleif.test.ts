import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readFixture, readShared } from '../../../test/fixtures/registry/paths.js';
import { isValidLei } from './gleif-common.js';
import { parseGleifLei } from './gleif-lei.js';
import { attachParents, parseGleifRr, parentLinksByChild } from './gleif-rr.js';

const encode = (value: unknown): Uint8Array =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

/** A SYNTHETIC LEI-CDF JSON record (made-up LEI with valid check digits, made-up name). */
function leiRecord(lei: string, name = 'Synthetic Holding Ltd'): unknown {
  return {
    LEI: { $: lei },
    Entity: {
      LegalName: { '@xml:lang': 'en', $: name },
      LegalAddress: {
        FirstAddressLine: { $: '1 Example Road' },
        AdditionalAddressLine: [{ $: 'Unit 2' }],
        City: { $: 'Testtown' },
        Region: { $: 'GB-LND' },
        Country: { $: 'GB' },
        PostalCode: { $: 'T1 1TT' },
      },
      EntityStatus: { $: 'ACTIVE' },
    },
    Registration: { RegistrationStatus: { $: 'ISSUED' } },
  };
}

function rejects(parse: () => unknown, pattern: RegExp): void {
  assert.throws(
    parse,
    (error: unknown) =>
      error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('LEI check digits (ISO 17442)', () => {
  it('accepts valid LEIs and rejects a changed character or bad shape', () => {
    assert.equal(isValidLei('SYNTHPARENT000000198'), true);
    assert.equal(isValidLei('SYNTHPARENT000000199'), false);
    assert.equal(isValidLei('SYNTHPARENT100000198'), false);
    assert.equal(isValidLei('synthparent000000198'), false);
    assert.equal(isValidLei('SYNTHPARENT0000001'), false);
  });
});

describe('parseGleifLei on synthetic records', () => {
  it('maps LEI, legal name, legal address and statuses', () => {
    const snapshot = parseGleifLei(encode({ records: [leiRecord('SYNTHPARENT000000198')] }), {
      snapshotDate: '2024-05-05',
    });
    const [record] = snapshot.records;
    assert.equal(record?.record_key, 'SYNTHPARENT000000198');
    assert.equal(record?.lei, 'SYNTHPARENT000000198');
    assert.equal(record?.record_type, 'legal_entity');
    assert.equal(record?.legal_name, 'Synthetic Holding Ltd');
    assert.equal(record?.country_code, 'GB');
    assert.deepEqual(record?.address, {
      street: '1 Example Road, Unit 2',
      postal_code: 'T1 1TT',
      city: 'Testtown',
      region: 'GB-LND',
    });
    assert.deepEqual([record?.entity_status, record?.registration_status], ['ACTIVE', 'ISSUED']);
    assert.equal(record?.fields['Entity.LegalName@xml:lang'], 'en');
    assert.equal(record?.fields['Entity.LegalAddress.AdditionalAddressLine[0]'], 'Unit 2');
    assert.equal(snapshot.snapshot_date, '2024-05-05');
  });

  it('rejects bad check digits, duplicates, missing names and broken documents', () => {
    rejects(
      () =>
        parseGleifLei(
          encode({
            records: [leiRecord('SYNTHPARENT000000198'), leiRecord('SYNTHPARENT000000199')],
          }),
        ),
      /^GLEIF LEI file record 2: LEI SYNTHPARENT000000199 fails the ISO 17442 check digits$/,
    );
    rejects(
      () =>
        parseGleifLei(
          encode({
            records: [leiRecord('SYNTHPARENT000000198'), leiRecord('SYNTHPARENT000000198')],
          }),
        ),
      /record 2: duplicate key SYNTHPARENT000000198 \(first at record 1\)/,
    );
    rejects(
      () => parseGleifLei(encode({ records: [leiRecord('SYNTHPARENT000000198', '')] })),
      /record 1: LEI SYNTHPARENT000000198 has no LegalName/,
    );
    rejects(() => parseGleifLei(encode({ items: [] })), /line 1: missing "records" list/);
    rejects(() => parseGleifLei(encode('{\n"records": [\n{"LEI": }\n]}')), /line 3: invalid JSON/);
    rejects(
      () => parseGleifLei(encode('<lei:LEIData xmlns:lei="x">\n<lei:LEIHeader>\n</lei:LEIData>')),
      /line 3: invalid XML/,
    );
    rejects(() => parseGleifLei(encode('LEI,Name')), /line 1: neither JSON nor XML/);
  });

  it('rejects an XML file whose header count does not match its records', () => {
    const xml = `<lei:LEIData xmlns:lei="http://www.gleif.org/data/schema/leidata/2016"><lei:LEIHeader><lei:ContentDate>2024-01-01T00:00:00Z</lei:ContentDate><lei:RecordCount>2</lei:RecordCount></lei:LEIHeader><lei:LEIRecords><lei:LEIRecord><lei:LEI>SYNTHPARENT000000198</lei:LEI><lei:Entity><lei:LegalName>Synthetic Holding Ltd</lei:LegalName></lei:Entity></lei:LEIRecord></lei:LEIRecords></lei:LEIData>`;
    rejects(
      () => parseGleifLei(encode(xml)),
      /line 1: header RecordCount 2 but 1 LEIRecord elements/,
    );
    const fixed = parseGleifLei(encode(xml.replace('<lei:RecordCount>2', '<lei:RecordCount>1')));
    assert.equal(fixed.snapshot_date, '2024-01-01');
    assert.equal(fixed.records[0]?.legal_name, 'Synthetic Holding Ltd');
  });
});

describe('parseGleifLei on the real GLEIF files', { skip: needsShared }, () => {
  it('reads the golden-copy delta JSON: 577 records, statuses and legal-entity events', () => {
    const snapshot = parseGleifLei(
      readShared('gleif/20240505-0000-gleif-goldencopy-lei2-intra-day.json'),
    );
    assert.equal(snapshot.row_count, 577);
    const status = (value: string): number =>
      snapshot.records.filter((r) => r.registration_status === value).length;
    assert.deepEqual([status('LAPSED'), status('ISSUED')], [333, 244]);
    const events = snapshot.records.map((r) =>
      Object.entries(r.fields)
        .filter(([key]) => key.endsWith('LegalEntityEventType'))
        .map(([, type]) => type),
    );
    assert.equal(events.filter((list) => list.length > 0).length, 65);
    const byType = new Map<string, number>();
    for (const type of events.flat()) byType.set(type, (byType.get(type) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(byType), {
      CHANGE_LEGAL_ADDRESS: 42,
      CHANGE_HQ_ADDRESS: 40,
      CHANGE_LEGAL_FORM: 13,
      CHANGE_LEGAL_NAME: 8,
      INSOLVENCY: 1,
    });
    const inProgress = snapshot.records.flatMap((r) =>
      Object.entries(r.fields).filter(
        ([key, value]) => key.endsWith('@event_status') && value === 'IN_PROGRESS',
      ),
    );
    assert.equal(inProgress.length, 1);
  });

  it('reads the concatenated LEI-CDF 2.1 XML: 10 records dated by the header', () => {
    const snapshot = parseGleifLei(
      readShared('gleif/20180901-gleif-concatenated-file-lei2-Top10.xml'),
    );
    assert.equal(snapshot.row_count, 10);
    assert.equal(snapshot.snapshot_date, '2018-09-01');
    const [first] = snapshot.records;
    assert.equal(first?.lei, '029200013A5N6ZD0F605');
    assert.equal(first?.legal_name, 'AFRINVEST SECURITIES LIMITED');
    assert.deepEqual(first?.address, {
      street: '27 GERRARD ROAD, IKOYI',
      postal_code: '23401',
      city: 'LAGOS',
      region: 'NG-LA',
    });
    assert.ok(snapshot.records.every((r) => isValidLei(r.record_key)));
  });
});

describe('parseGleifRr on the synthetic RR-CDF fixtures', () => {
  const fromXml = parseGleifRr(readFixture('gleif-rr-synthetic.xml'));
  const fromJson = parseGleifRr(readFixture('gleif-rr-synthetic.json'), {
    snapshotDate: '2024-03-01',
  });

  it('produces one relationship record per StartNode-type-EndNode', () => {
    assert.deepEqual(
      fromXml.records.map((r) => r.record_key),
      [
        'SYNTHCHILD0000000111|IS_DIRECTLY_CONSOLIDATED_BY|SYNTHPARENT000000198',
        'SYNTHCHILD0000000111|IS_ULTIMATELY_CONSOLIDATED_BY|SYNTHULTIMATE0000185',
        'SYNTHCHILD0000000208|IS_INTERNATIONAL_BRANCH_OF|SYNTHPARENT000000198',
      ],
    );
    assert.equal(fromXml.snapshot_date, '2024-03-01');
    const [direct] = fromXml.records;
    assert.deepEqual(direct?.parents, [
      {
        relationship_type: 'IS_DIRECTLY_CONSOLIDATED_BY',
        scheme: 'lei',
        value: 'SYNTHPARENT000000198',
        status: 'ACTIVE',
        start_date: '2015-06-30T00:00:00Z',
      },
    ]);
    assert.equal(direct?.registration_status, 'PUBLISHED');
    assert.equal(
      direct?.fields['Relationship.RelationshipPeriods.RelationshipPeriod[0].PeriodType'],
      'ACCOUNTING_PERIOD',
    );
  });

  it('reads the JSON shape into the same records as the XML', () => {
    assert.deepEqual(fromJson.records, fromXml.records);
  });

  it('attaches parent links to the child entities', () => {
    const entities = parseGleifLei(
      encode({
        records: [
          leiRecord('SYNTHCHILD0000000111', 'Synthetic Child Ltd'),
          leiRecord('SYNTHPARENT000000198'),
        ],
      }),
    );
    const linked = attachParents(entities, fromXml);
    assert.deepEqual(
      linked.records[0]?.parents.map((p) => [p.relationship_type, p.value, p.status]),
      [
        ['IS_DIRECTLY_CONSOLIDATED_BY', 'SYNTHPARENT000000198', 'ACTIVE'],
        ['IS_ULTIMATELY_CONSOLIDATED_BY', 'SYNTHULTIMATE0000185', 'ACTIVE'],
      ],
    );
    assert.deepEqual(linked.records[1]?.parents, []);
    assert.equal(parentLinksByChild(fromXml).get('SYNTHCHILD0000000208')?.[0]?.status, 'INACTIVE');
  });

  it('rejects non-LEI nodes, bad check digits and duplicate relationships', () => {
    const xml = new TextDecoder().decode(readFixture('gleif-rr-synthetic.xml'));
    const once = (from: string, to: string): Uint8Array => encode(xml.replace(from, to));
    rejects(
      () => parseGleifRr(once('<rr:NodeIDType>LEI', '<rr:NodeIDType>BIC')),
      /^GLEIF relationship file record 1: StartNode\/NodeIDType is "BIC", expected LEI$/,
    );
    rejects(
      () => parseGleifRr(once('SYNTHCHILD0000000208', 'SYNTHCHILD0000000209')),
      /record 3: StartNode LEI SYNTHCHILD0000000209 fails/,
    );
    const duplicate = xml
      .replace('SYNTHULTIMATE0000185</rr:NodeID>', 'SYNTHPARENT000000198</rr:NodeID>')
      .replace('IS_ULTIMATELY', 'IS_DIRECTLY');
    rejects(() => parseGleifRr(encode(duplicate)), /record 2: duplicate key/);
    rejects(
      () => parseGleifRr(once('<rr:RecordCount>3', '<rr:RecordCount>4')),
      /line 1: header RecordCount 4 but 3/,
    );
  });
});
