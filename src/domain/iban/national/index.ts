import type { Rng } from '../../rng.js';
import type { NationalCheckOutcome, NationalContext, NationalRule } from './types.js';
import { albaniaRule } from './albania.js';
import { belgiumRule } from './belgium.js';
import { cinRule } from './cin.js';
import { czechRule, slovakRule } from './czech-slovak.js';
import { estoniaRule } from './estonia.js';
import { finlandRule } from './finland.js';
import { germanyRule } from './germany.js';
import { hungaryRule } from './hungary.js';
import { icelandRule } from './iceland.js';
import { croatiaRule } from './iso7064.js';
import { mod97BbanRule } from './mod97-bban.js';
import { norwayRule } from './norway.js';
import { russiaRule } from './russia.js';
import { polandRule } from './poland.js';
import { ribKeyRule } from './rib-key.js';
import { spainRule } from './spain.js';

const frenchLayout = 'FR BBAN: bank 5n, branch 5n, account 11c, key 2n';
const cfonb =
  'CFONB (Comité français d’organisation et de normalisation bancaires): relevé d’identité bancaire, clé RIB';

const mod97Countries: readonly (readonly [string, string, string])[] = [
  [
    'BA',
    'bank 3n, branch 3n, account 8n, check 2n',
    'Central Bank of Bosnia and Herzegovina: account number control digits, ISO 7064 MOD 97-10',
  ],
  [
    'ME',
    'bank 3n, account 13n, check 2n',
    'Central Bank of Montenegro: account number control digits, ISO 7064 MOD 97-10',
  ],
  [
    'MK',
    'bank 3n, account 10c, check 2n',
    'National Bank of the Republic of North Macedonia: account number control digits, ISO 7064 MOD 97-10',
  ],
  [
    'PT',
    'bank 4n, branch 4n, account 11n, check 2n',
    'Banco de Portugal: NIB (Número de Identificação Bancária) check digits, ISO 7064 MOD 97-10',
  ],
  [
    'RS',
    'bank 3n, account 13n, check 2n',
    'National Bank of Serbia: account number control digits, ISO 7064 MOD 97-10',
  ],
  [
    'SI',
    'bank 2n, branch 3n, account 8n, check 2n',
    'Banka Slovenije: transaction account number (TRR) control digits, ISO 7064 MOD 97-10',
  ],
  [
    'TL',
    'bank 3n, account 14n, check 2n',
    'Banco Central de Timor-Leste: account number check digits, ISO 7064 MOD 97-10',
  ],
  [
    'XK',
    'bank 4n, account 10n, check 2n',
    'Central Bank of the Republic of Kosovo: every IBAN begins XK05 (2015 IBAN notice), i.e. BBAN ≡ 1 mod 97',
  ],
];

function buildRules(): ReadonlyMap<string, NationalRule> {
  const list: NationalRule[] = [
    albaniaRule,
    belgiumRule,
    czechRule,
    slovakRule,
    estoniaRule,
    finlandRule('FI'),
    germanyRule,
    hungaryRule,
    icelandRule,
    croatiaRule,
    norwayRule,
    russiaRule,
    polandRule,
    spainRule,
    cinRule(
      'IT',
      'Associazione Bancaria Italiana (ABI): CIN control character of the coordinate bancarie',
    ),
    cinRule(
      'SM',
      'Banca Centrale della Repubblica di San Marino: Italian CIN rule (same BBAN layout as IT)',
    ),
    // The registry's FR entry also covers the overseas territories (GF, GP, ... WF), whose IBANs are FR ones.
    ribKeyRule('FR', frenchLayout, cfonb),
    ribKeyRule(
      'MC',
      'MC BBAN: bank 5n, branch 5n, account 11c, key 2n',
      `${cfonb} (Monaco uses the French RIB)`,
    ),
    ribKeyRule(
      'MR',
      'MR BBAN: bank 5n, branch 5n, account 11n, key 2n',
      'Banque Centrale de Mauritanie: RIB key (every IBAN begins MR13)',
    ),
    ribKeyRule(
      'DJ',
      'DJ BBAN: bank 5n, branch 5n, account 11n, key 2n',
      'Banque Centrale de Djibouti: RIB key (French RIB arithmetic)',
    ),
    ribKeyRule(
      'TN',
      'TN BBAN: bank 2n, branch 3n, account 13n, key 2n',
      'Banque Centrale de Tunisie: RIB key (every IBAN begins TN59)',
    ),
    ...mod97Countries.map(([code, layout, source]) =>
      mod97BbanRule(code, `${code} BBAN: ${layout}`, source),
    ),
  ];
  return new Map(list.map((rule) => [rule.countryCode, rule]));
}

/**
 * Country code -> national check-digit rule. Countries absent here have no BBAN-internal check
 * digits in force (or only obsolete ones, e.g. the Dutch 11-proof): their rows say 'not_applicable'.
 * RULES.md is the human table of the same list (a test keeps the two in step) and gives the
 * reason for every registry country deliberately left without a rule.
 */
const rules: ReadonlyMap<string, NationalRule> = buildRules();

export function nationalRuleOf(countryCode: string): NationalRule | undefined {
  return rules.get(countryCode);
}

export function nationalCheck(
  countryCode: string,
  bban: string,
  context: NationalContext,
): NationalCheckOutcome {
  const rule = rules.get(countryCode);
  return rule === undefined ? 'not_applicable' : rule.check(bban, context);
}

export function completeNationalCheckDigits(
  countryCode: string,
  bban: string,
  rng: Rng,
  context: NationalContext,
): string {
  const rule = rules.get(countryCode);
  return rule === undefined ? bban : rule.complete(bban, rng, context);
}

export function countriesWithNationalRules(): string[] {
  return [...rules.keys()].sort();
}
