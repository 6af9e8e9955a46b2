// Every source an answer gives is a public document: title, issuer and an https URL, never a file path. Walks the
// fixture manifest spec, the whole scenario catalog, every scenario the catalog offers (compiled for each VoP outcome where one applies) and
// the VoP benchmark catalog, and finds every `source` member wherever it sits.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { manifestSpec } from '../../ops/manifests/spec.js';
import { scenarioCatalog } from '../../ops/scenarios/catalog.js';
import { vopCatalog } from '../../ops/vop/catalog.js';
import { resolveCountry } from '../iban/index.js';
import { noRegistryContext } from '../iban/national/types.js';
import { requestKeyOf } from '../rng.js';
import { buildScenario } from '../scenarios/build.js';
import { scenarioDefinitions } from '../scenarios/scenarios.js';
import { vopOutcomes } from '../scenarios/vop.js';

/** Every value of a member named `source` in a JSON-like tree. */
function sourcesIn(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) sourcesIn(item, found);
  else if (value !== null && typeof value === 'object')
    for (const [name, member] of Object.entries(value)) {
      if (name === 'source') found.push(member);
      else sourcesIn(member, found);
    }
  return found;
}

const filePath =
  /(^|[\s(])(\.{0,2}\/)?[\w.-]+\/[\w./-]+\.(md|txt|json|csv|ts|js)\b|shared\/|domain\.md|§/u;

function assertPublic(source: unknown, where: string): void {
  assert.ok(source !== null && typeof source === 'object', `${where}: ${JSON.stringify(source)}`);
  const { title, issuer, document, section, url } = source as Record<string, unknown>;
  for (const [name, text] of Object.entries({ title, issuer }))
    assert.ok(typeof text === 'string' && text.trim().length > 3, `${where}: ${name}`);
  assert.ok(document === null || typeof document === 'string', `${where}: document`);
  assert.ok(section === null || typeof section === 'string', `${where}: section`);
  assert.ok(typeof url === 'string' && URL.canParse(url), `${where}: url ${String(url)}`);
  assert.equal(new URL(url as string).protocol, 'https:', `${where}: ${String(url)}`);
  for (const text of [title, issuer, document, section])
    if (typeof text === 'string') assert.doesNotMatch(text, filePath, `${where}: ${text}`);
}

function compiledScenarios(): unknown[] {
  const format = resolveCountry('DE');
  assert.ok(format);
  return scenarioDefinitions.flatMap((definition) =>
    (definition.path.startsWith('SDD') ? [undefined] : vopOutcomes).map((vopOutcome) =>
      buildScenario(
        requestKeyOf('sources', `${definition.name}|${vopOutcome ?? ''}`),
        {
          definition,
          format,
          target: { status: 'not_requested' },
          amountCents: undefined,
          vopOutcome,
          seed: 'sources',
        },
        noRegistryContext,
      ),
    ),
  );
}

/** The catalogs read nothing but the clock and the caller; a keyless caller at the epoch. */
const catalogContext = {
  caller: { keyId: null, plan: null, paid: false },
  rowStart: 0,
  now: () => new Date(0),
};

describe('public sources only', () => {
  it('cites a public document for every source of the scenario catalog, scenarios and VoP catalog', () => {
    const answers: [string, unknown][] = [
      ['scenario catalog', scenarioCatalog.run({}, catalogContext)],
      ['VoP catalog', vopCatalog.run({}, catalogContext)],
      ['fixture manifest spec', manifestSpec.run({}, { ...catalogContext, manifestKeys: null })],
      ...compiledScenarios().map((scenario, i): [string, unknown] => [`scenario ${i}`, scenario]),
    ];
    let count = 0;
    for (const [where, answer] of answers)
      for (const source of sourcesIn(answer)) {
        assertPublic(source, where);
        count += 1;
      }
    assert.ok(count > 100, `${count} sources`);
  });

  it('refers to no file outside the repository anywhere in src/ or proto/', () => {
    const root = new URL('../../../', import.meta.url).pathname;
    const outside =
      /shared\/(notes|spec)|\bdomain\.md\b|\bnotes\/[\w-]+\.md\b|\.\.\/shared\/(?!registry-sources)/u;
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (outside.test(readFileSync(path, 'utf8'))) offenders.push(path);
      }
    };
    for (const dir of ['src', 'proto']) walk(join(root, dir));
    assert.deepEqual(offenders, []);
  });
});
