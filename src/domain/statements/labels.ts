/**
 * The words statements print for each concept the review reads, per language: the one table of labels (the
 * readers in fields.ts compile it; no label is written anywhere else). Matching is case-insensitive, on whole
 * words, after the line's dates are set aside, so "Alter Kontostand 01.03.2024 1.842,17" still reads.
 *
 * The concepts are those of ISO 20022 camt.053 (BankToCustomerStatement): the opening and closing booked
 * balances (ExternalBalanceType1Code OPBD and CLBD), the account owner (Acct/Ownr/Nm), the account
 * (Acct/Id/IBAN or Othr), the period (FrToDt), the statement's creation date (CreDtTm) and the entries (Ntry);
 * their SWIFT MT940 counterparts are fields :25: (account), :60F: (opening) and :62F: (closing).
 */

import anyAscii from 'any-ascii';

export type LabelConcept =
  | 'title'
  | 'holder'
  | 'account'
  | 'iban'
  | 'period'
  | 'statementDate'
  | 'openingBalance'
  | 'closingBalance'
  | 'carriedForward'
  | 'totalCredits'
  | 'totalDebits'
  | 'transactions'
  | 'routing'
  | 'currency'
  | 'debitColumn'
  | 'creditColumn'
  | 'bankName';

export type LanguageCode = 'en' | 'de' | 'fr' | 'nl' | 'es' | 'it' | 'pl';

export interface LanguageLabels {
  readonly language: LanguageCode;
  /** Countries whose banks print these words (variants merged into the same entry). */
  readonly countries: readonly string[];
  /**
   * Public documents that show the words (a bank's or a financial-education body's explanation of its
   * statements where one was found; otherwise a public guide). Not a bank's customer statement.
   */
  readonly sources: readonly string[];
  readonly labels: Readonly<Partial<Record<LabelConcept, readonly string[]>>>;
  /** Words that open a period ("vom") and join its two dates ("bis"); a dash always joins. */
  readonly periodFrom: readonly string[];
  readonly periodTo: readonly string[];
  /** Words before a name in an address block ("Frau", "Mr"). */
  readonly salutations: readonly string[];
  /** Month names and abbreviations, January first (CLDR's wide and abbreviated forms, and genitives). */
  readonly months: readonly (readonly string[])[];
}

/** The concepts themselves: ISO 20022 camt.053 element names and balance type codes. */
export const conceptSources: readonly string[] = [
  'ISO 20022, camt.053.001 BankToCustomerStatement message definition, https://www.iso20022.org/iso-20022-message-definitions',
  'ISO 20022 External Code Sets, ExternalBalanceType1Code (OPBD opening booked, CLBD closing booked), https://www.iso20022.org/catalogue-messages/additional-content-messages/external-code-sets',
];

export const languageLabels: readonly LanguageLabels[] = [
  {
    language: 'en',
    countries: ['GB', 'IE', 'US', 'MT'],
    sources: [
      'IBM Sterling, "MT 950 statement message" (fields 60F Opening Balance, 62F Closing Balance), https://www.ibm.com/docs/en/stea/10.0.2?topic=management-mt-950-statement-message',
    ],
    labels: {
      title: ['account statement', 'bank statement', 'statement of account', 'statement'],
      holder: ['account holder', 'account name', 'account owner', 'customer name', 'name'],
      account: ['account number', 'account no', 'account #', 'acct no', 'account'],
      iban: ['iban'],
      period: ['statement period', 'period', 'for the period'],
      statementDate: ['statement date', 'date of issue', 'issue date', 'date issued'],
      openingBalance: [
        'opening balance',
        'previous balance',
        'starting balance',
        'beginning balance',
        'balance brought forward',
        'brought forward',
      ],
      closingBalance: [
        'closing balance',
        'new balance',
        'ending balance',
        'balance carried forward',
      ],
      carriedForward: ['carried forward', 'brought forward', 'balance forward'],
      totalCredits: [
        'total credits',
        'deposits and additions',
        'total deposits',
        'paid in',
        'money in',
      ],
      totalDebits: [
        'total debits',
        'withdrawals and subtractions',
        'total withdrawals',
        'paid out',
        'money out',
      ],
      transactions: ['transactions', 'transaction details', 'account activity'],
      routing: [
        'aba routing number',
        'routing transit number',
        'routing number',
        'routing',
        'aba',
        'rtn',
      ],
      currency: ['currency'],
      bankName: ['bank name', 'bank'],
      debitColumn: ['paid out', 'money out', 'debit', 'debits', 'withdrawals'],
      creditColumn: ['paid in', 'money in', 'credit', 'credits', 'deposits'],
    },
    periodFrom: ['from'],
    periodTo: ['to', 'until', 'through', 'thru'],
    salutations: ['mr', 'mrs', 'ms', 'miss', 'dr', 'mx'],
    months: [
      ['jan', 'january'],
      ['feb', 'february'],
      ['mar', 'march'],
      ['apr', 'april'],
      ['may'],
      ['jun', 'june'],
      ['jul', 'july'],
      ['aug', 'august'],
      ['sep', 'sept', 'september'],
      ['oct', 'october'],
      ['nov', 'november'],
      ['dec', 'december'],
    ],
  },
  {
    language: 'de',
    countries: ['DE', 'AT', 'CH', 'LI', 'LU'],
    sources: [
      'Erste Bank und Sparkasse (AT), Sparefroh "Kontoauszug" (Neuer Kontostand, alter Kontostand, Gutschriften und Belastungen), http://www.sparefroh.at/de/Geld-Wissen/Kontoauszug',
    ],
    labels: {
      title: ['kontoauszug', 'kontoauszüge', 'auszug', 'rechnungsabschluss', 'umsatzübersicht'],
      holder: ['kontoinhaber', 'kontoinhaberin', 'inhaber', 'kontobezeichnung', 'name'],
      account: ['kontonummer', 'konto-nr', 'konto nr', 'kontonr', 'konto'],
      iban: ['iban'],
      period: ['zeitraum', 'auszugszeitraum', 'abrechnungszeitraum', 'periode'],
      statementDate: ['erstellt am', 'auszugsdatum', 'datum', 'druckdatum'],
      openingBalance: [
        'alter kontostand',
        'alter saldo',
        'anfangssaldo',
        'saldo alt',
        'kontostand alt',
        'saldovortrag',
        'vortrag',
      ],
      closingBalance: [
        'neuer kontostand',
        'neuer saldo',
        'endsaldo',
        'saldo neu',
        'kontostand neu',
      ],
      carriedForward: ['übertrag', 'uebertrag'],
      totalCredits: ['summe gutschriften', 'gutschriften', 'summe haben'],
      totalDebits: ['summe belastungen', 'belastungen', 'summe soll'],
      transactions: ['umsätze', 'buchungen', 'kontobewegungen'],
      currency: ['währung', 'waehrung'],
      bankName: ['kreditinstitut', 'bank'],
      debitColumn: ['soll', 'belastung', 'lastschrift', 'ausgang'],
      creditColumn: ['haben', 'gutschrift', 'eingang'],
    },
    periodFrom: ['vom', 'von', 'ab'],
    periodTo: ['bis'],
    salutations: ['herr', 'herrn', 'frau', 'dr'],
    months: [
      ['jan', 'januar', 'jän', 'jänner'],
      ['feb', 'februar'],
      ['mär', 'märz', 'maerz'],
      ['apr', 'april'],
      ['mai'],
      ['jun', 'juni'],
      ['jul', 'juli'],
      ['aug', 'august'],
      ['sep', 'sept', 'september'],
      ['okt', 'oktober'],
      ['nov', 'november'],
      ['dez', 'dezember'],
    ],
  },
  {
    language: 'fr',
    countries: ['FR', 'BE', 'CH', 'LU', 'MC'],
    sources: [
      'Banque de France, Mes questions d\'argent, "Comprendre mes relevés bancaires" (opérations créditrices et débitrices), https://www.mesquestionsdargent.fr/comptes-moyens-de-paiement/releves-bancaires',
      'Younited Credit, lexique "Relevé de compte" (colonnes date de valeur, débit, crédit; période de référence), https://younited-credit.com/lexique/releve-de-compte',
    ],
    labels: {
      title: ['relevé de compte', 'relevé de comptes', 'extrait de compte', 'relevé'],
      holder: ['titulaire du compte', 'titulaire', 'intitulé du compte', 'nom'],
      account: ['numéro de compte', 'n° de compte', 'no de compte', 'compte n°', 'compte'],
      iban: ['iban'],
      period: ['période', 'periode'],
      statementDate: ["date d'édition", "date d'arrêté", 'date du relevé', 'édité le', 'date'],
      openingBalance: [
        'ancien solde',
        'solde précédent',
        'solde initial',
        'solde au début',
        'solde de départ',
      ],
      closingBalance: ['nouveau solde', 'solde final', 'solde à la fin', 'solde de clôture'],
      carriedForward: ['à reporter', 'report'],
      totalCredits: ['total des crédits', 'total crédits'],
      totalDebits: ['total des débits', 'total débits'],
      transactions: ['opérations', 'mouvements'],
      currency: ['devise', 'monnaie'],
      bankName: ['banque', 'établissement'],
      debitColumn: ['débit', 'debit'],
      creditColumn: ['crédit', 'credit'],
    },
    periodFrom: ['du'],
    periodTo: ['au'],
    salutations: ['m', 'mme', 'mlle', 'monsieur', 'madame'],
    months: [
      ['janv', 'janvier'],
      ['févr', 'février', 'fevr'],
      ['mars'],
      ['avr', 'avril'],
      ['mai'],
      ['juin'],
      ['juil', 'juillet'],
      ['août', 'aout'],
      ['sept', 'septembre'],
      ['oct', 'octobre'],
      ['nov', 'novembre'],
      ['déc', 'décembre'],
    ],
  },
  {
    language: 'nl',
    countries: ['NL', 'BE', 'SR'],
    sources: [
      'KamilTaylan.blog, "Bankafschrift" (rekeningafschrift, rekeninghouder, begin- en eindsaldo), https://nl.kamiltaylan.blog/bank-statement',
    ],
    labels: {
      title: ['rekeningafschrift', 'afschrift', 'bankafschrift', 'rekeningoverzicht'],
      holder: ['rekeninghouder', 'tenaamstelling', 'ten name van', 't.n.v', 'naam'],
      account: ['rekeningnummer', 'rekening'],
      iban: ['iban'],
      period: ['periode', 'afschriftperiode'],
      statementDate: ['datum afschrift', 'aanmaakdatum', 'datum'],
      openingBalance: ['beginsaldo', 'vorig saldo', 'oud saldo', 'saldo vorig afschrift'],
      closingBalance: ['eindsaldo', 'nieuw saldo', 'saldo einde periode'],
      carriedForward: ['transport'],
      totalCredits: ['totaal bij', 'bijschrijvingen'],
      totalDebits: ['totaal af', 'afschrijvingen'],
      transactions: ['transacties', 'mutaties', 'bij- en afschrijvingen'],
      currency: ['valuta', 'munteenheid'],
      bankName: ['bank'],
      debitColumn: ['af'],
      creditColumn: ['bij'],
    },
    periodFrom: ['van', 'vanaf'],
    periodTo: ['t/m', 'tot en met', 'tot'],
    salutations: ['dhr', 'mevr', 'de heer', 'mevrouw'],
    months: [
      ['jan', 'januari'],
      ['feb', 'februari'],
      ['mrt', 'maart'],
      ['apr', 'april'],
      ['mei'],
      ['jun', 'juni'],
      ['jul', 'juli'],
      ['aug', 'augustus'],
      ['sep', 'september'],
      ['okt', 'oktober'],
      ['nov', 'november'],
      ['dec', 'december'],
    ],
  },
  {
    language: 'es',
    countries: ['ES', 'AD'],
    sources: [
      'Banco Santander, "Anatomía de un extracto bancario" (titular, fecha de emisión, operaciones, fecha valor), https://santander.com/es/stories/anatomia-de-un-extracto-bancario-que-partes-lo-componen',
    ],
    labels: {
      title: ['extracto de cuenta', 'extracto bancario', 'extracto'],
      holder: ['titular de la cuenta', 'titular', 'nombre'],
      account: ['número de cuenta', 'nº de cuenta', 'n.º de cuenta', 'cuenta'],
      iban: ['iban'],
      period: ['periodo', 'período'],
      statementDate: ['fecha de emisión', 'fecha del extracto', 'fecha'],
      openingBalance: ['saldo anterior', 'saldo inicial'],
      closingBalance: ['saldo final', 'saldo actual', 'nuevo saldo'],
      carriedForward: ['suma y sigue'],
      totalCredits: ['total abonos', 'abonos'],
      totalDebits: ['total cargos', 'cargos'],
      transactions: ['movimientos'],
      currency: ['divisa', 'moneda'],
      bankName: ['entidad', 'banco'],
      debitColumn: ['cargo', 'cargos', 'debe'],
      creditColumn: ['abono', 'abonos', 'haber'],
    },
    periodFrom: ['del', 'desde'],
    periodTo: ['al', 'hasta'],
    salutations: ['sr', 'sra', 'd', 'dña', 'don', 'doña'],
    months: [
      ['ene', 'enero'],
      ['feb', 'febrero'],
      ['mar', 'marzo'],
      ['abr', 'abril'],
      ['may', 'mayo'],
      ['jun', 'junio'],
      ['jul', 'julio'],
      ['ago', 'agosto'],
      ['sep', 'sept', 'septiembre', 'setiembre'],
      ['oct', 'octubre'],
      ['nov', 'noviembre'],
      ['dic', 'diciembre'],
    ],
  },
  {
    language: 'it',
    countries: ['IT', 'SM', 'CH'],
    sources: [
      'FEduF (ABI), Capire l\'economia, "L\'estratto conto" (elenco movimenti, saldo contabile, dare e avere), https://www.capireleconomia.it/template/default.asp?i_menuID=24239',
      'Soldi e Lavoro, estratto conto (data, valuta, movimenti dare e avere, saldo finale), https://soldielavoro.net/?p=4764',
    ],
    labels: {
      title: ['estratto conto', 'estratto'],
      holder: ['intestatario', 'intestato a', 'titolare', 'nominativo'],
      account: ['numero conto', 'numero di conto', 'conto n', 'conto corrente'],
      iban: ['iban'],
      period: ['periodo'],
      statementDate: ['data di emissione', 'data estratto', 'data'],
      openingBalance: ['saldo iniziale', 'saldo precedente'],
      closingBalance: ['saldo finale', 'saldo contabile finale'],
      carriedForward: ['riporto', 'a riportare'],
      totalCredits: ['totale accrediti', 'totale avere'],
      totalDebits: ['totale addebiti', 'totale dare'],
      transactions: ['movimenti'],
      currency: ['divisa', 'valuta'],
      bankName: ['banca', 'istituto'],
      debitColumn: ['dare', 'addebiti', 'uscite'],
      creditColumn: ['avere', 'accrediti', 'entrate'],
    },
    periodFrom: ['dal'],
    periodTo: ['al'],
    salutations: ['sig', 'sig.ra', 'signor', 'signora', 'dott'],
    months: [
      ['gen', 'gennaio'],
      ['feb', 'febbraio'],
      ['mar', 'marzo'],
      ['apr', 'aprile'],
      ['mag', 'maggio'],
      ['giu', 'giugno'],
      ['lug', 'luglio'],
      ['ago', 'agosto'],
      ['set', 'settembre'],
      ['ott', 'ottobre'],
      ['nov', 'novembre'],
      ['dic', 'dicembre'],
    ],
  },
  {
    language: 'pl',
    countries: ['PL'],
    sources: [
      'wktorymbanku.pl, "Jak wygląda wyciąg z konta bankowego" (wyciąg z rachunku, właściciel rachunku, obciążenia), https://www.wktorymbanku.pl/jak-wyglada-wyciag-z-konta-bankowego/',
      'lukowicatomy.pl, "Jak wygląda wyciąg bankowy" (saldo początkowe i końcowe), https://lukowicatomy.pl/jak-wyglada-wyciag-bankowy-kluczowe-informacje-i-porady',
    ],
    labels: {
      title: ['wyciąg bankowy', 'wyciąg z rachunku', 'wyciąg'],
      holder: ['właściciel rachunku', 'posiadacz rachunku', 'właściciel', 'posiadacz'],
      account: ['numer rachunku', 'nr rachunku', 'rachunek'],
      iban: ['iban'],
      period: ['okres'],
      statementDate: ['data wyciągu', 'data wystawienia', 'data'],
      openingBalance: ['saldo początkowe', 'saldo poprzednie', 'saldo otwarcia'],
      closingBalance: ['saldo końcowe', 'saldo zamknięcia'],
      carriedForward: ['z przeniesienia', 'do przeniesienia'],
      totalCredits: ['suma uznań', 'uznania'],
      totalDebits: ['suma obciążeń', 'obciążenia'],
      transactions: ['operacje', 'transakcje'],
      currency: ['waluta'],
      bankName: ['bank'],
      debitColumn: ['obciążenia', 'wypłaty'],
      creditColumn: ['uznania', 'wpłaty'],
    },
    periodFrom: ['od'],
    periodTo: ['do'],
    salutations: ['pan', 'pani'],
    months: [
      ['sty', 'styczeń', 'stycznia'],
      ['lut', 'luty', 'lutego'],
      ['mar', 'marzec', 'marca'],
      ['kwi', 'kwiecień', 'kwietnia'],
      ['maj', 'maja'],
      ['cze', 'czerwiec', 'czerwca'],
      ['lip', 'lipiec', 'lipca'],
      ['sie', 'sierpień', 'sierpnia'],
      ['wrz', 'wrzesień', 'września'],
      ['paź', 'październik', 'października'],
      ['lis', 'listopad', 'listopada'],
      ['gru', 'grudzień', 'grudnia'],
    ],
  },
];

/** Every label of a concept over all languages, longest first (so "saldo końcowe" wins over "saldo"). */
export function labelsOf(concept: LabelConcept): string[] {
  // Each label also in its ASCII form: OCR and some PDF text layers lose diacritics ("wyciag", "releve").
  const all = languageLabels
    .flatMap((entry) => entry.labels[concept] ?? [])
    .flatMap((label) => [label, anyAscii(label)]);
  return [...new Set(all)].sort((a, b) => b.length - a.length);
}

export function wordsOf(field: 'periodFrom' | 'periodTo' | 'salutations'): string[] {
  return [...new Set(languageLabels.flatMap((entry) => entry[field]))].sort(
    (a, b) => b.length - a.length,
  );
}

/** The language whose labels the document uses most (null when none matched). */
export function languageOf(texts: readonly string[]): LanguageCode | null {
  // Compared in ASCII form, so "Wyciag" counts as "Wyciąg".
  const folded = anyAscii(texts.join('\n')).toLowerCase();
  let best: { language: LanguageCode; hits: number } | null = null;
  for (const entry of languageLabels) {
    const words = Object.values(entry.labels)
      .flat()
      .filter((word) => word.length > 4 && word !== 'iban')
      .map((word) => anyAscii(word));
    const hits = words.filter((word) => folded.includes(word)).length;
    if (hits > 0 && (best === null || hits > best.hits)) best = { language: entry.language, hits };
  }
  return best?.language ?? null;
}

/** Month number (1-12) of every month name and abbreviation, in its own and its ASCII form. */
export function monthNumbers(): ReadonlyMap<string, number> {
  const numbers = new Map<string, number>();
  for (const entry of languageLabels)
    entry.months.forEach((names, index) => {
      for (const name of names) {
        numbers.set(name, index + 1);
        numbers.set(anyAscii(name), index + 1);
      }
    });
  return numbers;
}
