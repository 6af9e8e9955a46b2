// Goal: calculateIban rebuilds the registry example of every country from its components,
// computing the national check digits where a rule exists, and refuses components that cannot
// form a valid BBAN with a precise reason. Method: split each example at the registry positions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../errors.js';
import { nationalRuleOf } from './national/index.js';
import { noRegistryContext } from './national/types.js';
import { countryFormatOf, countryFormats, type CountryFormat, type Span } from './countries.js';
import { calculateIban, type IbanComponents } from './calculate.js';

const context = noRegistryContext;

function formatOf(code: string): CountryFormat {
  const format = countryFormatOf(code);
  assert.ok(format !== undefined, code);
  return format;
}

function part(format: CountryFormat, span: Span): string {
  return format.example.slice(4 + span.offset, 4 + span.offset + span.length);
}

/** The example's components, with or without its national check digits. */
function componentsOf(format: CountryFormat, withNationalDigits: boolean): IbanComponents {
  return {
    bankCode: part(format, format.bankCode),
    ...(format.branchCode === null ? {} : { branchCode: part(format, format.branchCode) }),
    accountNumber: part(format, format.accountNumber),
    ...(withNationalDigits && format.nationalCheckDigits !== null
      ? { nationalCheckDigits: part(format, format.nationalCheckDigits) }
      : {}),
  };
}

function throwsInvalid(run: () => unknown, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'invalid_argument');
    assert.match(error.message, message);
    return true;
  });
}

describe('calculateIban: registry examples', () => {
  it('rebuilds every example from all its components', () => {
    for (const format of countryFormats) {
      const built = calculateIban(format, componentsOf(format, true), context);
      assert.equal(built.iban, format.example, format.code);
      assert.notEqual(built.nationalCheck, 'failed');
    }
  });

  it('computes the national check digits where the country has a rule', () => {
    for (const format of countryFormats) {
      if (format.nationalCheckDigits === null || nationalRuleOf(format.code) === undefined)
        continue;
      const built = calculateIban(format, componentsOf(format, false), context);
      assert.equal(built.iban, format.example, format.code);
      assert.equal(built.nationalCheck, 'passed', format.code);
    }
  });

  it('is a pure function of the components', () => {
    const components = componentsOf(formatOf('ES'), false);
    assert.deepEqual(
      calculateIban(formatOf('ES'), components, context),
      calculateIban(formatOf('ES'), components, context),
    );
  });
});

describe('calculateIban: account numbers', () => {
  it('left-pads a short numeric account number with zeros', () => {
    const built = calculateIban(
      formatOf('DE'),
      { bankCode: '37040044', accountNumber: '532013000' },
      context,
    );
    assert.equal(built.iban, 'DE89370400440532013000');
    assert.equal(built.accountNumber, '0532013000');
    const gb = calculateIban(
      formatOf('GB'),
      { bankCode: 'NWBK', branchCode: '601613', accountNumber: '3192 6819' },
      context,
    );
    assert.equal(gb.iban, 'GB29NWBK60161331926819');
  });

  it('never truncates a long account number', () => {
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('DE'),
          { bankCode: '37040044', accountNumber: '10532013000' },
          context,
        ),
      /^DE account number must be 10 characters \(10!n\), got 11/,
    );
  });

  it('refuses characters the account positions do not take', () => {
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('DE'),
          { bankCode: '37040044', accountNumber: '05320130X0' },
          context,
        ),
      /^DE account number \(10!n\): character 9 must be a digit, got 'X'/,
    );
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('DE'),
          { bankCode: '37040044', accountNumber: '0532-13000' },
          context,
        ),
      /character 5 must be a digit, got '-'/,
    );
  });
});

describe('calculateIban: a bank code that includes the branch code', () => {
  // SWIFT IBAN Registry examples: FR bank 20041 + guichet 01005, IT ABI 05428 + CAB 11101, GB NWBK + sort code 601613.
  it('splits it at the registry positions where the branch code follows the bank code (FR, IT, GB)', () => {
    assert.equal(
      calculateIban(
        formatOf('FR'),
        { bankCode: '2004101005', accountNumber: '0500013M026' },
        context,
      ).iban,
      'FR1420041010050500013M02606',
    );
    const it = calculateIban(
      formatOf('IT'),
      { bankCode: '0542811101', accountNumber: '123456' },
      context,
    );
    assert.equal(it.iban, 'IT60X0542811101000000123456');
    assert.equal(it.bankCode, '05428');
    assert.equal(it.branchCode, '11101');
    assert.equal(
      calculateIban(formatOf('GB'), { bankCode: 'NWBK601613', accountNumber: '31926819' }, context)
        .iban,
      'GB29NWBK60161331926819',
    );
  });

  it('accepts the same branch code given twice and refuses a different one', () => {
    const same = calculateIban(
      formatOf('FR'),
      { bankCode: '2004101005', branchCode: '01005', accountNumber: '0500013M026' },
      context,
    );
    assert.equal(same.iban, 'FR1420041010050500013M02606');
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('FR'),
          { bankCode: '2004101005', branchCode: '01006', accountNumber: '0500013M026' },
          context,
        ),
      /^FR bank code 2004101005 includes the branch code 01005, but branch_code says 01006$/,
    );
  });

  it('splits ES entidad + oficina alike, and never pads a short bank code', () => {
    assert.equal(
      calculateIban(formatOf('ES'), { bankCode: '21000418', accountNumber: '0200051332' }, context)
        .iban,
      'ES9121000418450200051332',
    );
    throwsInvalid(
      () =>
        calculateIban(formatOf('AT'), { bankCode: '1904', accountNumber: '234573201' }, context),
      /^AT bank code must be 5 characters/,
    );
  });
});

describe('calculateIban: refusals', () => {
  it('needs a bank code, and a branch code where the country has one', () => {
    throwsInvalid(
      () => calculateIban(formatOf('DE'), { accountNumber: '0532013000' }, context),
      /^DE needs a bank code \(8!n\)$/,
    );
    throwsInvalid(
      () => calculateIban(formatOf('GB'), { bankCode: 'NWBK', accountNumber: '31926819' }, context),
      /^GB needs a branch code \(6!n\)$/,
    );
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('DE'),
          { bankCode: '37040044', branchCode: '1', accountNumber: '1' },
          context,
        ),
      /^DE IBANs carry no branch code$/,
    );
  });

  it('refuses national check digits that are wrong, naming the right ones', () => {
    const spain = { bankCode: '2100', branchCode: '0418', accountNumber: '0200051332' };
    assert.equal(
      calculateIban(formatOf('ES'), { ...spain, nationalCheckDigits: '45' }, context).iban,
      'ES9121000418450200051332',
    );
    throwsInvalid(
      () => calculateIban(formatOf('ES'), { ...spain, nationalCheckDigits: '46' }, context),
      /^ES national check digits 46 are wrong for these components \(.*\), expected 45$/,
    );
  });

  it('refuses national check digits for a country without separate ones', () => {
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('DE'),
          { bankCode: '37040044', accountNumber: '532013000', nationalCheckDigits: '1' },
          context,
        ),
      /^DE BBANs have no separate national check digits$/,
    );
  });

  it('refuses an account number that fails its embedded national check (CZ)', () => {
    assert.ok(nationalRuleOf('CZ') !== undefined, 'CZ rule registered');
    const good = calculateIban(
      formatOf('CZ'),
      { bankCode: '0800', accountNumber: '0000192000145399' },
      context,
    );
    assert.equal(good.iban, 'CZ6508000000192000145399');
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('CZ'),
          { bankCode: '0800', accountNumber: '0000192000145398' },
          context,
        ),
      /^CZ components fail the national check/,
    );
  });

  it('refuses a bank code that conflicts with given national digits (PL sort code check digit)', () => {
    throwsInvalid(
      () =>
        calculateIban(
          formatOf('PL'),
          { bankCode: '10901014', accountNumber: '0000071219812874', nationalCheckDigits: '5' },
          context,
        ),
      /^PL national check digits and bank code disagree at BBAN position 8$/,
    );
  });
});
