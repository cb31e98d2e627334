import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  identifierFault,
  identifierProblem,
  imoSchemeOf,
  imoCheckDigit,
  isAllocatedMid,
  isScreeningIdentifierType,
  normalizeCurrency,
  normalizeIdentifier,
  SCREENING_IDENTIFIER_TYPES,
} from '../../src/identifiers/index.js';

const ok = (kind: Parameters<typeof identifierProblem>[0], value: string, imoScheme?: 'ship' | 'company') =>
  identifierProblem(kind, normalizeIdentifier(kind, value), { imoScheme });

describe('identifier types', () => {
  it('are the twelve a screening can name, and nothing listed-only', () => {
    assert.equal(SCREENING_IDENTIFIER_TYPES.length, 12);
    for (const t of ['imo', 'bic', 'crypto_wallet', 'aircraft_registration'])
      assert.ok(isScreeningIdentifierType(t), t);
    for (const t of ['swift', 'list_reference', 'email', 'un_ref']) assert.ok(!isScreeningIdentifierType(t), t);
  });
});

describe('IMO numbers', () => {
  it('accept real ship numbers from the lists, with or without the IMO prefix', () => {
    // EBANO (OFAC), Vessel Registration Identification IMO 7406784; SEA STAR (OFAC), 8908935.
    for (const v of ['7406784', 'IMO 7406784', 'IMO: 7406784', 'imo7406784', '8908935'])
      assert.equal(ok('imo', v, 'ship'), undefined, v);
    assert.equal(normalizeIdentifier('imo', 'IMO 7406784'), '7406784');
    assert.equal(imoCheckDigit('740678'), 4);
  });

  it('accept real company numbers by the company scheme, and refuse them as ships', () => {
    // Korea Chongchongang Shipping (UN), "IMO Number: 5342883"; "Company Number IMO 5434358".
    for (const v of ['5342883', '5434358', '5571322']) {
      assert.equal(ok('imo', v, 'company'), undefined, v);
      assert.match(ok('imo', v, 'ship') ?? '', /check digit/);
      assert.equal(ok('imo', v), undefined, `${v} passes when the party's kind is unknown`);
    }
    assert.equal(imoCheckDigit('534288', 'company'), 3);
  });

  it('refuse a wrong check digit, a wrong length, and two numbers run together', () => {
    assert.match(ok('imo', '7406785', 'ship') ?? '', /last digit would be 4/);
    assert.match(ok('imo', 'IMO 15411') ?? '', /7 digits/);
    // MOF printed two company numbers as one: 5179245 and 5405737.
    assert.match(ok('imo', '51792455405737') ?? '', /7 digits/);
    assert.match(ok('imo', '12345a7') ?? '', /7 digits/);
  });
});

describe('faults: structure (refused) or check digit (screened with a warning)', () => {
  it('tells a malformed number from a well-formed one whose check fails', () => {
    const fault = (kind: Parameters<typeof identifierFault>[0], value: string, imoScheme?: 'ship' | 'company') =>
      identifierFault(kind, normalizeIdentifier(kind, value), { imoScheme })?.fault;
    assert.equal(fault('imo', '7406785', 'ship'), 'checksum');
    assert.equal(fault('imo', '5342883', 'ship'), 'checksum');
    assert.equal(fault('imo', '5342883'), undefined);
    assert.equal(fault('imo', '740678'), 'structure');
    assert.equal(fault('imo', '51792455405737'), 'structure');
    assert.equal(fault('lei', '253400V1H6ART1UQ0N99'), 'checksum');
    assert.equal(fault('lei', '253400V1H6ART1UQ0N9'), 'structure');
    assert.equal(fault('lei', '253400V1H6ART1UQ0N9X'), 'structure');
    assert.equal(fault('bic', 'EXCBZZMM'), 'structure');
    assert.equal(fault('bic', 'EXC1'), 'structure');
    assert.equal(fault('mmsi', '123456789'), 'checksum');
    assert.equal(fault('mmsi', '42212345'), 'structure');
    assert.equal(fault('passport', ' - '), 'structure');
    assert.equal(fault('passport', 'X1'), undefined);
  });

  it('reads the IMO scheme a number passes, the ship first', () => {
    assert.equal(imoSchemeOf('7406784'), 'ship');
    assert.equal(imoSchemeOf('5342883'), 'company');
    assert.equal(imoSchemeOf('7406785'), undefined);
    assert.equal(imoSchemeOf('740678'), undefined);
  });
});

describe('LEIs (ISO 17442)', () => {
  it('accept real ones (VTB Bank, OFAC) in any case and spacing', () => {
    for (const v of [
      '253400V1H6ART1UQ0N98',
      'LEI 253400V1H6ART1UQ0N98',
      '2534 00v1 h6ar t1uq 0n98',
      'LEI: 253400V1H6ART1UQ0N98',
    ])
      assert.equal(ok('lei', v), undefined, v);
    assert.equal(normalizeIdentifier('lei', 'lei: 2534 00v1 h6ar t1uq 0n98'), '253400V1H6ART1UQ0N98');
  });

  it('refuse a changed character, swapped check digits and the Dutch RSINs OFAC prints as LEIs', () => {
    assert.match(ok('lei', '253400V1H6ART1UQ0N99') ?? '', /check digits/);
    assert.match(ok('lei', '253400V1H6ART1UQ0M98') ?? '', /check digits/);
    assert.match(ok('lei', '253400V1H6ART1UQ0N89') ?? '', /check digits/);
    // FLEURETTE HOLDINGS NETHERLANDS B.V.: "Legal Entity Number 851683897 (Netherlands)".
    assert.match(ok('lei', '851683897') ?? '', /20 characters/);
  });
});

describe('BICs (ISO 9362)', () => {
  it('accept real ones, 8 and 11 characters, and read the head office XXX as the 8-character form', () => {
    for (const v of ['VTBRRUMM', 'SWIFT/BIC VTBRRUMM', 'HAVIGB2L', 'INAKRU41', 'vtbr ru mm xxx', 'SABRRUMM012'])
      assert.equal(ok('bic', v), undefined, v);
    assert.equal(normalizeIdentifier('bic', 'VTBRRUMMXXX'), 'VTBRRUMM');
    assert.equal(normalizeIdentifier('bic', 'SABRRUMM012'), 'SABRRUMM012');
    // A BIC whose party code begins with the letters of the word BIC or SWIFT keeps them.
    assert.equal(normalizeIdentifier('bic', 'BICCCNYA'), 'BICCCNYA');
    assert.equal(normalizeIdentifier('bic', 'SWIFTUS33'), 'SWIFTUS33');
    assert.equal(normalizeIdentifier('bic', 'BIC: BICCCNYA'), 'BICCCNYA');
    assert.equal(normalizeIdentifier('lei', 'LEI 5493001KJTIIGC8Y1R12'), '5493001KJTIIGC8Y1R12');
  });

  it('refuse a country that does not exist and a wrong length', () => {
    assert.match(ok('bic', 'VTBRZZMM') ?? '', /ZZ is not an ISO 3166 country/);
    assert.match(ok('bic', 'VTBRRUM') ?? '', /8 or 11/);
    assert.match(ok('bic', '044525600') ?? '', /8 or 11/);
    assert.match(ok('bic', 'VTBR1UMM') ?? '', /8 or 11/);
  });
});

describe('MMSIs (ITU-R M.585)', () => {
  it('accept real ship numbers from OFAC and the other station forms', () => {
    for (const v of ['572469210', 'MMSI 572469210', '636092345', '003669999', '111232500', '970123456'])
      assert.equal(ok('mmsi', v), undefined, v);
    assert.ok(isAllocatedMid(572) && isAllocatedMid(273) && isAllocatedMid(775));
    assert.ok(!isAllocatedMid(217) && !isAllocatedMid(600) && !isAllocatedMid(999));
  });

  it('refuse digits no country holds and a wrong length', () => {
    assert.match(ok('mmsi', '799469210') ?? '', /799 are allocated to no country/);
    assert.match(ok('mmsi', '990469210') ?? '', /046 are allocated to no country/);
    assert.match(ok('mmsi', '600123456') ?? '', /600/);
    assert.match(ok('mmsi', '57246921') ?? '', /9 digits/);
  });
});

describe('normalizing the types without a check', () => {
  it('drops case, spaces, dashes and number signs from documents, and reads full-width digits', () => {
    assert.equal(normalizeIdentifier('passport', 'AO 2879097'), 'AO2879097');
    assert.equal(normalizeIdentifier('passport', 'ao-2879097'), 'AO2879097');
    assert.equal(normalizeIdentifier('passport', 'No. E590976'), 'E590976');
    assert.equal(normalizeIdentifier('national_id', '２１０６０４１９７２'), '2106041972');
    assert.equal(normalizeIdentifier('tax_id', 'DIB-771110-HQ1'), 'DIB771110HQ1');
    assert.equal(normalizeIdentifier('aircraft_registration', 'EP-MNA'), 'EPMNA');
    assert.equal(normalizeIdentifier('call_sign', '3fxk9'), '3FXK9');
  });

  it('keeps the letter case of base58 wallets and folds hexadecimal and bech32 ones', () => {
    assert.equal(
      normalizeIdentifier('crypto_wallet', '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak'),
      '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak',
    );
    assert.equal(
      normalizeIdentifier('crypto_wallet', '0x8576ACC5C05D6CE88F4E49BF65BDF0C62F91353C'),
      '0x8576acc5c05d6ce88f4e49bf65bdf0c62f91353c',
    );
    assert.equal(
      normalizeIdentifier('crypto_wallet', 'BC1QSJTSXJW2R4QZ3RV8KW7KR2MY6XA3DZJ5HQKFX7'),
      'bc1qsjtsxjw2r4qz3rv8kw7kr2my6xa3dzj5hqkfx7',
    );
    assert.equal(normalizeCurrency('xbt'), 'BTC');
    assert.equal(normalizeCurrency('ETH'), 'ETH');
  });

  it('has nothing to compare in a value without letters or digits', () => {
    assert.equal(normalizeIdentifier('passport', ' - / '), '');
    assert.match(identifierProblem('passport', '') ?? '', /no letters or digits/);
  });
});
