/**
 * Test account numbers the Deutsche Bundesbank publishes in its method description
 * ("Prüfzifferberechnungsmethoden", Testkontonummern richtig/falsch), per method, plus the
 * worked examples ("Beispiel") of the method texts where a method lists no test numbers.
 * Expected verdicts are the overall ones: a number the document lists as wrong for an early
 * variant but right for a later one is valid; "invalid" holds only numbers the document says
 * fail the method as a whole (the last variant's list, or a single-variant method's list).
 * Accounts are as printed (without leading zeros where the document omits them).
 * Source text: the method descriptions as mirrored in github.com/swallat/gen-ibans
 * (prompts/methods/generated/method_XX.md), transcribed from the Bundesbank PDF.
 */

/** An account, or an account with the bank code the published example uses (ESER methods). */
export type TestNumber = string | { readonly account: string; readonly bankCode: string };

export interface MethodTestNumbers {
  readonly valid: readonly TestNumber[];
  readonly invalid: readonly TestNumber[];
}

/** Placeholder bank code for methods that ignore the BLZ (synthetic, not a real institution). */
export const syntheticBankCode = '00000000';

export const bundesbankTestNumbers: Readonly<Record<string, MethodTestNumbers>> = {
  // Method 00: Modulus 10, weights 2,1,2,… with digit sums
  '00': { valid: ['9290701', '539290858', '1501824', '1501832'], invalid: [] },
  // Method 06: Modulus 11, weights 2..7 repeated (remainder 1 gives 0)
  '06': { valid: ['94012341', '5073321010'], invalid: [] },
  // Method 10: as 06 with weights 2..10
  '10': { valid: ['12345008', '87654008'], invalid: [] },
  // Method 17: KSSSSSSPUU, weights 1,2,1,2,1,2, minus 1
  '17': { valid: ['0446786040'], invalid: [] },
  // Method 19: as 06 with weights 2..9,1
  '19': { valid: ['0240334000', '0200520016'], invalid: [] },
  // Method 24: the four worked examples of the method text
  '24': { valid: ['138301', '1306118605', '3307118608', '9307118603'], invalid: [] },
  // Method 25: worked example of the method text
  '25': { valid: ['521382181'], invalid: [] },
  // Method 26: positions 1-7, check digit 8, shift when positions 1-2 are 00
  '26': { valid: ['0520309001', '1111118111', '0005501024'], invalid: [] },
  // Method 27: worked example of the iterated transformation
  '27': { valid: ['2847169488'], invalid: [] },
  // Method 28: positions 1-7 weights 2..8, check digit 8
  '28': { valid: ['19999000', '9130000201'], invalid: [] },
  // Method 29: worked example of the iterated transformation
  '29': { valid: ['3145863029'], invalid: [] },
  // Method 31: remainder is the check digit; last one is the worked example
  '31': { valid: ['1000000524', '1000000583', '0263160165'], invalid: [] },
  // Method 32: positions 4-9 weights 2..7
  '32': {
    valid: ['9141405', '1709107983', '0122116979', '0121114867', '9030101192', '9245500460'],
    invalid: [],
  },
  // Method 33: positions 5-9 weights 2..6
  '33': { valid: ['48658', '84956'], invalid: [] },
  // Method 34: method 28 with weights 2,4,8,5,A,9,7
  '34': { valid: ['9913000700', '9914001000'], invalid: [] },
  // Method 35: remainder 10: positions 9 and 10 equal
  '35': {
    valid: ['0000108443', '0000107451', '0000102921', '0000102349', '0000101709', '0000101599'],
    invalid: [],
  },
  // Method 36: positions 6-9 weights 2,4,8,5
  '36': { valid: ['113178', '146666'], invalid: [] },
  // Method 37: positions 5-9 weights 2,4,8,5,A
  '37': { valid: ['624315', '632500'], invalid: [] },
  // Method 38: positions 4-9 weights 2,4,8,5,A,9
  '38': { valid: ['191919', '1100660'], invalid: [] },
  // Method 39: positions 3-9 weights 2,4,8,5,A,9,7
  '39': { valid: ['200205', '10019400'], invalid: [] },
  // Method 40: positions 1-9 weights 2,4,8,5,A,9,7,3,6
  '40': { valid: ['1258345', '3231963'], invalid: [] },
  // Method 41: position 4 = 9 drops positions 1-3; last one is the worked example
  '41': {
    valid: [
      '4013410024', '4016660195', '0166805317', '4019310079', '4019340829', '4019151002',
      '4019110008',
    ],
    invalid: [],
  },
  // Method 42: positions 2-9 weights 2..9
  '42': { valid: ['59498', '59510'], invalid: [] },
  // Method 43: weights 1..9, modulus 10
  '43': { valid: ['6135244', '9516893476'], invalid: [] },
  // Method 44: positions 5-9 weights 2,4,8,5,A
  '44': { valid: ['889006', '2618040504'], invalid: [] },
  // Method 45: last five carry no check digit (position 1 = 0, position 5 = 1, prefix 48)
  '45': {
    valid: [
      '3545343232', '4013410024', '0994681254', '0000012340', '1000199999', '0100114240',
      '4890001112',
    ],
    invalid: [],
  },
  // Method 46: positions 3-7, check digit 8
  '46': { valid: ['0235468612', '0837890901', '1041447600'], invalid: [] },
  // Method 47: positions 4-8, check digit 9
  '47': { valid: ['1018000', '1003554450'], invalid: [] },
  // Method 50: positions 1-6, check digit 7
  '50': { valid: ['4000005001', '4444442001'], invalid: [] },
  // Method 51: methods A-D and the Sachkonten exception (position 3 = 9); invalid: method D and exception lists
  '51': {
    valid: [
      '0001156071', '0001156136', '0001156078', '0001234567', '340968', '201178', '1009588',
      '0000156071', '101356073', '0199100002', '0099100010', '2599100002', '0199100004',
      '2599100003', '3199204090',
    ],
    invalid: ['0123412345', '67493647', '0099345678'],
  },
  // Method 52: ESER legacy number built from BLZ and 8-digit account (worked example, BLZ 13051172)
  '52': { valid: [{ account: '43001500', bankCode: '13051172' }], invalid: [] },
  // Method 53: ESER legacy number for 9-digit accounts (worked example: BLZ 16052072, account 38P432256, P = 2)
  '53': { valid: [{ account: '382432256', bankCode: '16052072' }], invalid: [] },
  // Method 54: positions 1-2 always 49
  '54': { valid: ['4964137395', '4900010987'], invalid: [] },
  // Method 56: the two worked examples (second: leading 9, result 10 gives 7)
  '56': { valid: ['0290545005', '9718304037'], invalid: [] },
  // Method 57: variants chosen by the first two digits; 0185125434 is the published exception
  '57': {
    valid: [
      '7500021766', '9400001734', '7800028282', '8100244186', '3251080371', '3891234567',
      '7777778800', '5001050352', '5045090090', '1909700805', '9322111030', '7400060823',
      '0185125434',
    ],
    invalid: ['5302707782', '6412121212', '1813499124', '2206735010'],
  },
  // Method 58: positions 5-9 weights 2..6; last one is the worked example
  '58': { valid: ['1800881120', '9200654108', '1015222224', '3703169668', '1800293377'], invalid: [] },
  // Method 61: the two worked examples (second: account type 8)
  '61': { valid: ['2063099200', '0260760481'], invalid: [] },
  // Method 62: worked example
  '62': { valid: ['5029076701'], invalid: [] },
  // Method 63: the two worked examples (second: sub-account 00 omitted)
  '63': { valid: ['0123456600', '0001234566'], invalid: [] },
  // Method 64: positions 1-6 weights 9,10,5,8,4,2, check digit 7
  '64': { valid: ['1206473010', '5016511020'], invalid: [] },
  // Method 65: the two worked examples (second: account type 9)
  '65': { valid: ['1234567400', '1234567590'], invalid: [] },
  // Method 66: test numbers, worked example, and the no-check example (position 2 = 9)
  '66': {
    valid: ['100154508', '101154508', '100154516', '101154516', '100150502', '0983393104'],
    invalid: [],
  },
  // Method 68: worked examples: 10 digits, 9 digits variant 1 and variant 2
  '68': { valid: ['8889654328', '987654324', '987654328'], invalid: [] },
  // Method 69: variant 1, variant 2, and the worked example
  '69': { valid: ['1234567900', '1234567006', '9721134869'], invalid: [] },
  // Method 71: worked example
  '71': { valid: ['7101234007'], invalid: [] },
  // Method 73: variants 1-3 (invalid: variant 3 list)
  '73': {
    valid: ['0003503398', '0001340967', '0003503391', '0001340968', '0003503392', '0001340966', '123456'],
    invalid: ['121212', '987654321'],
  },
  // Method 74: variant 1 (with the 6-digit half-decade rule) and variant 2 (method 04)
  '74': {
    valid: [
      '1016', '26260', '242243', '242248', '18002113', '1821200043', '1015', '26263', '242241',
      '18002116', '1821200047', '3456789012',
    ],
    invalid: ['1011', '26265', '242249', '18002118', '123456789'],
  },
  // Method 76: test numbers and the two worked examples
  '76': { valid: ['0006543200', '9012345600', '7876543100', '0012345600', '0000123456'], invalid: [] },
  // Method 77: positions 6-10 must sum to a multiple of 11
  '77': { valid: ['10338', '13844', '65354', '69258'], invalid: [] },
  // Method 78: method 00; 8-digit accounts carry no check digit
  '78': { valid: ['7581499', '9999999981'], invalid: [] },
  // Method 79: first digit 3-8 vs 1, 2, 9
  '79': {
    valid: [
      '3230012688', '4230028872', '5440001898', '6330001063', '7000149349', '8000003577',
      '1550167850', '9011200140',
    ],
    invalid: [],
  },
  // Method 80: method A (modulus 10) and method B (modulus 7)
  '80': { valid: ['340968', '340966'], invalid: [] },
  // Method 81: as method 32
  '81': { valid: ['0646440', '1359100'], invalid: [] },
  // Method 82: method 33; positions 3-4 = 99: method 10
  '82': { valid: ['123897', '3199500501'], invalid: [] },
  // Method 83: customer accounts A, B, C and a Sachkonto
  '83': { valid: ['0001156071', '0001156136', '0000156078', '0000156071', '0099100002'], invalid: [] },
  // Method 84: methods A (mod 11), B (mod 7), C (mod 10)
  '84': {
    valid: ['240699', '350982', '461059', '240692', '350985', '461052', '240961', '350984', '461054'],
    invalid: ['240965', '350980', '461053'],
  },
  // Method 85: methods A, B, C and the 99 exception
  '85': { valid: ['0001156071', '0001156136', '0000156078', '0000156071', '3199100002'], invalid: [] },
  // Method 86: method A (00 on 4-9) and method B (32)
  '86': { valid: ['340968', '1001171', '1009588', '123897', '340960'], invalid: [] },
  // Method 87: method A (published pseudocode), B and C, D
  '87': {
    valid: [
      '0000000406', '0000051768', '0010701590', '0010720185', '0000100005', '0000393814',
      '0000950360', '3199500501', '0001975641', '0001988654',
    ],
    invalid: ['0001924592'],
  },
  // Method 88: positions 4-9, or 3-9 when position 3 is 9
  '88': { valid: ['2525259', '1000500', '90013000', '92525253', '99913003'], invalid: [] },
  // Method 89: 7 digits with digit sums; 8 and 9 digits via method 10
  '89': { valid: ['1098506', '32028008', '218433000'], invalid: [] },
  // Method 90: methods A-E, G and F; the "testbar nach Methode X" numbers are valid through a later method
  '90': {
    valid: [
      '0001975641', '0001988654', '0001863530', '0001784451', '0000654321', '0000824491',
      '0000677747', '0000840507', '0000996663', '0000666034', '0004923250', '0003865960',
      '0099100002', '0000997664', '0000863536', '0000820484', '0000654328', '0000677742',
      '0000726390', '0000465431',
    ],
    invalid: [
      '0001924592', '0000901568', '0000820487', '0000726393', '0000924591', '0003865964',
      '0099100007',
    ],
  },
  // Method 91: check digit at position 7, variants 1-4 (invalid: variant 4 list)
  '91': {
    valid: [
      '2974118000', '5281741000', '9952810000', '2974117000', '5281770000', '9952812000',
      '8840019000', '8840050000', '8840087000', '8840045000', '8840012000', '8840055000',
      '8840080000',
    ],
    invalid: ['8840010000', '8840057000'],
  },
  // Method 93: modulus 11 and modulus 7, both layouts
  '93': {
    valid: [
      '6714790000', '0000671479', '1277830000', '0000127783', '1277910000', '0000127791',
      '3067540000', '0000306754',
    ],
    invalid: [],
  },
  // Method 94: weights 1,2,1,… with digit sums
  '94': { valid: ['6782533003'], invalid: [] },
  // Method 95: method 06 with unchecked ranges
  '95': { valid: ['0068007003', '0847321750', '6450060494', '6454000003'], invalid: [] },
  // Method 96: method 19, then 00, then a range
  '96': { valid: ['0000254100', '9421000009', '0000000208', '0101115152', '0301204301'], invalid: [] },
  // Method 97: worked example
  '97': { valid: ['24010019'], invalid: [] },
  // Method 98: weights 3,7,1 on 3-9, then method 32; last one is the worked example
  '98': {
    valid: [
      '9619439213', '3009800016', '9619509976', '5989800173', '9619319999', '6719430018',
      '9619608118',
    ],
    invalid: [],
  },
  // Method 99: method 06 with one unchecked range
  '99': { valid: ['0068007003', '0847321750'], invalid: [] },
  // Method A0: positions 5-9 weights 2,4,8,5,A
  A0: { valid: ['521003287', '54500', '3287', '18761', '28290'], invalid: [] },
  // Method A1: only 8- or 10-digit accounts
  A1: {
    valid: ['0010030005', '0010030997', '1010030054'],
    invalid: ['0110030005', '0010030998', '0000030005'],
  },
  // Method A2: method 00, then 04
  A2: {
    valid: ['3456789019', '5678901231', '6789012348', '3456789012'],
    invalid: ['1234567890', '0123456789'],
  },
  // Method A3: method 00, then 10
  A3: {
    valid: ['1234567897', '0123456782', '9876543210', '1234567890', '0123456789'],
    invalid: ['6543217890', '0543216789'],
  },
  // Method A4: variants 1-4 (invalid: variant 4 list)
  A4: {
    valid: [
      '0004711173', '0007093330', '0004711172', '0007093335', '1199503010', '8499421235',
      '0000862342', '8997710000', '0664040000', '0000905844', '5030101099', '0001123458',
      '1299503117',
    ],
    invalid: ['0000399443', '0000553313'],
  },
  // Method A5: method 00, then 10 unless 10 digits starting with 9
  A5: {
    valid: [
      '9941510001', '9961230019', '9380027210', '9932290910', '0000251437', '0007948344',
      '0000159590', '0000051640',
    ],
    invalid: ['9941510002', '9961230020', '0000251438', '0007948345'],
  },
  // Method A6: 8 at position 2: method 00, otherwise 01
  A6: {
    valid: ['800048548', '0855000014', '17', '55300030', '150178033', '600003555', '900291823'],
    invalid: ['860000817', '810033652', '305888', '200071280'],
  },
  // Method A7: method 00, then 03
  A7: { valid: ['19010008', '19010438', '19010660', '19010876', '209010892'], invalid: ['209010893'] },
  // Method A8: method 06 on 4-9, then 00 on 4-9
  A8: {
    valid: ['7436661', '7436670', '1359100', '7436660', '7436678', '0003503398', '0001340967'],
    invalid: ['7436666', '7436677', '0003503391', '0001340966'],
  },
  // Method A9: method 01, then 06
  A9: {
    valid: ['5043608', '86725', '504360', '822035', '32577083'],
    invalid: ['86724', '292497', '30767208'],
  },
  // Method B0: 10 digits only; position 8 decides between no check and method 06
  B0: {
    valid: ['1197423162', '1000000606', '1000000406', '1035791538', '1126939724', '1197423460'],
    invalid: [
      '8137423260', '600000606', '51234309', '1000000405', '1035791539', '8035791532', '535791830',
      '51234901',
    ],
  },
  // Method B1: methods 05, 01, 00 (invalid: variant 3 list)
  B1: {
    valid: [
      '1434253150', '2746315471', '7414398260', '8347251693', '1501824', '1501832', '539290858',
      '7414398268', '8347251699',
    ],
    invalid: ['0123456789', '2345678901', '5678901234'],
  },
  // Method B2: first digit 0-7: method 02, 8-9: method 00
  B2: {
    valid: ['0020012357', '0080012345', '0926801910', '1002345674', '8000990054', '9000481805'],
    invalid: [
      '0020012399', '0080012347', '0080012370', '0932100027', '3310123454', '8000990057',
      '8011000126', '9000481800', '9980480111',
    ],
  },
  // Method B3: first digit 0-8: method 32, 9: method 06
  B3: {
    valid: [
      '1000000060', '0000000140', '0000000019', '1002798417', '8409915001', '9635000101',
      '9730200100',
    ],
    invalid: ['0002799899', '1000000111', '9635100101', '9730300100'],
  },
  // Method B4: first digit 9: method 00, else method 02 with weights 2..10
  B4: {
    valid: [
      '9941510001', '9961230019', '9380027210', '9932290910', '0000251437', '0007948344',
      '0000051640',
    ],
    invalid: ['9941510002', '9961230020', '0000251438', '0007948345', '0000159590'],
  },
  // Method B5: weights 7,3,1; then method 00 unless the first digit is 8 or 9
  B5: {
    valid: [
      '0159006955', '2000123451', '1151043216', '9000939033', '0123456782', '0130098767',
      '1045000252',
    ],
    invalid: [
      '7414398260', '8347251693', '9000293707', '0159004165', '0023456787', '0056789018',
      '3045000333',
    ],
  },
  // Method B6: method 20 for 10-digit and 02691-02699 accounts, otherwise method 53 with the BLZ
  B6: {
    valid: ['9110000000', '0269876545', { account: '487310018', bankCode: '80053782' }],
    invalid: ['9111000000', '0269456780', { account: '467310018', bankCode: '80053762' }, { account: '477310018', bankCode: '80053772' }],
  },
  // Method B7: method 01 in two ranges, no check elsewhere
  B7: {
    valid: [
      '0700001529', '0730000019', '0001001008', '0001057887', '0001007222', '0810011825',
      '0800107653', '0005922372',
    ],
    invalid: ['0001057886', '0003815570', '0005620516', '0740912243', '0893524479'],
  },
  // Method B8: method 20, then 29, then unchecked ranges
  B8: {
    valid: ['0734192657', '6932875274', '3145863029', '2938692523'],
    invalid: ['0132572975', '9000412340', '9310305011'],
  },
  // Method B9: two leading zeros: variant 1, three: variant 2
  B9: {
    valid: ['87920187', '41203755', '81069577', '61287958', '58467232', '7125633', '1253657', '4353631'],
    invalid: ['88034023', '43025432', '86521362', '61256523', '54352684', '2356412', '5435886', '9435414'],
  },
  // Method C0: two leading zeros: method 52 with the BLZ, then method 20 (82335729 fails variant 1 but
  // passes variant 2, which lists 0082335729 as correct)
  C0: {
    valid: [
      { account: '43001500', bankCode: '13051172' },
      { account: '48726458', bankCode: '13051172' },
      { account: '82335729', bankCode: '13051172' },
      '0082335729',
      '0734192657',
      '6932875274',
    ],
    invalid: ['0132572975', '3038752371'],
  },
  // Method C1: first digit not 5: method 17, 5: variant 2
  C1: {
    valid: [
      '0446786040', '0478046940', '0701625830', '0701625840', '0882095630', '5432112349',
      '5543223456', '5654334563', '5765445670', '5876556788',
    ],
    invalid: [
      '0446786240', '0478046340', '0701625730', '0701625440', '0882095130', '5432112341',
      '5543223458', '5654334565', '5765445672', '5876556780',
    ],
  },
  // Method C2: methods 22, 00, 04 (invalid: variant 3 list)
  C2: {
    valid: [
      '2394871426', '4218461950', '7352569148', '5127485166', '8738142564', '0076543216',
      '3456789012', '9024675138',
    ],
    invalid: ['0328705282', '7352569145', '9024675131'],
  },
  // Method C3: first digit not 9: method 00, 9: method 58
  C3: {
    valid: ['9294182', '4431276', '19919', '9000420530', '9000010006', '9000577650'],
    invalid: ['17002', '123451', '122448', '9000734028', '9000733227', '9000731120'],
  },
  // Method C4: first digit not 9: method 15, 9: method 58
  C4: {
    valid: ['0000000019', '0000292932', '0000094455', '9000420530', '9000010006', '9000577650'],
    invalid: ['0000000017', '0000292933', '0000094459', '9000726558', '9001733457', '9000732000'],
  },
  // Method C5: variant chosen by account range
  C5: {
    valid: [
      '0000301168', '0000302554', '0300020050', '0300566000', '1000061378', '1000061412',
      '4450164064', '4863476104', '5000000028', '5000000391', '6450008149', '6800001016',
      '9000100012', '9000210017', '3060188103', '3070402023',
    ],
    invalid: [
      '0000302589', '0000507336', '0302555000', '0302589000', '1000061457', '1000061498',
      '4864446015', '4865038012', '5000001028', '5000001075', '6450008150', '6542812818',
      '9000110012', '9000300310', '3081000783', '3081308871',
    ],
  },
  // Method C6: constant chosen by the first digit; 7000005024 is the worked example
  C6: {
    valid: [
      '0000065516', '0203178249', '1031405209', '1082012201', '2003455189', '2004001016',
      '3110150986', '3068459207', '5035105948', '5286102149', '4012660028', '4100235626',
      '6028426119', '6861001755', '7008199027', '7002000023', '8526080015', '8711072264',
      '9000430223', '9000781153', '7000005024',
    ],
    invalid: [
      '0525111212', '0091423614', '1082311275', '1000118821', '2004306518', '2016001206',
      '3462816371', '3622548632', '4232300158', '4000456126', '5002684526', '5564123850',
      '6295473774', '6640806317', '7000062022', '7006003027', '8348300002', '8654216984',
      '9000641509', '9000260986',
    ],
  },
  // Method C7: method 63, then 06
  C7: {
    valid: ['3500022', '38150900', '600103660', '39101181', '94012341', '5073321010'],
    invalid: ['1234517892', '987614325'],
  },
  // Method C8: methods 00, 04, 07
  C8: {
    valid: ['3456789019', '5678901231', '3456789012', '0022007130', '0123456789', '0552071285'],
    invalid: ['1234567890', '9012345678'],
  },
  // Method C9: methods 00, 07
  C9: { valid: ['3456789019', '5678901231', '0123456789'], invalid: ['1234567890', '9012345678'] },
  // Method D0: method 20, prefix 57 unchecked
  D0: { valid: ['6100272324', '6100273479'], invalid: ['6100272885', '6100273377', '6100274012'] },
  // Method D1: constant 436338 + first digit
  D1: {
    valid: [
      '0082012203', '1452683581', '2129642505', '3002000027', '4230001407', '5000065514',
      '6001526215', '7126502149', '9000430223',
    ],
    invalid: [
      '0000260986', '1062813622', '2256412314', '3012084101', '4006003027', '5814500990',
      '6128462594', '7000062035', '8003306026', '9000641509',
    ],
  },
  // Method D2: methods 95, 00, 68
  D2: {
    valid: ['189912137', '235308215', '4455667784', '1234567897', '51181008', '71214205'],
    invalid: ['6414241', '179751314'],
  },
  // Method D3: method 00, then 27
  D3: {
    valid: ['1600169591', '1600189151', '1800084079', '6019937007', '6021354007', '6030642006'],
    invalid: ['6025017009', '6028267003', '6019835001'],
  },
  // Method D4: constant 428259 before positions 1-9
  D4: {
    valid: [
      '1112048219', '2024601814', '3000005012', '4143406984', '5926485111', '6286304975',
      '7900256617', '8102228628', '9002364588',
    ],
    invalid: [
      '0359432843', '1000062023', '2204271250', '3051681017', '4000123456', '5212744564',
      '6286420010', '7859103459', '8003306026', '9916524534',
    ],
  },
  // Method D5: variant 1 for xx99xxxxxx, otherwise variants 2-4
  D5: {
    valid: [
      '5999718138', '1799222116', '0099632004', '0004711173', '0007093330', '0000127787',
      '0004711172', '0007093335', '0000100062', '0000100088',
    ],
    invalid: ['3299632008', '1999204293', '0399242139', '0000100084', '0000100085'],
  },
  // Method D6: methods 07, 03, 00
  D6: {
    valid: [
      '3409', '585327', '1650513', '3601671056', '4402001046', '6100268241', '7001000681',
      '9000111105', '9001291005',
    ],
    invalid: ['7004017653', '9002720007', '9017483524'],
  },
  // Method D7: units digit of the method 00 sum is the check digit
  D7: {
    valid: [
      '0500018205', '0230103715', '0301000434', '0330035104', '0420001202', '0134637709',
      '0201005939', '0602006999',
    ],
    invalid: [
      '0501006102', '0231307867', '0301005331', '0330034104', '0420001302', '0135638809',
      '0202005939', '0601006977',
    ],
  },
  // Method D8: method 00 for 10 digits, unchecked range 0010000000-0099999999
  D8: {
    valid: ['1403414848', '6800000439', '6899999954'],
    invalid: ['3012084101', '1062813622', '0000260986'],
  },
  // Method D9: methods 00, 10, 18
  D9: {
    valid: [
      '1234567897', '0123456782', '9876543210', '1234567890', '0123456789', '1100132044',
      '1100669030',
    ],
    invalid: ['1100789043', '1100914032'],
  },
  // Method E0: method 00 plus 7
  E0: {
    valid: ['1234568013', '1534568010', '2610015', '8741013011'],
    invalid: ['1234769013', '2710014', '9741015011'],
  },
  // Method E1: ASCII values; 0134211909 is the worked example
  E1: {
    valid: ['0100041104', '0100054106', '0200025107', '0134211909'],
    invalid: ['0150013107', '0200035101', '0081313890', '4268550840', '0987402008'],
  },
  // Method E2: constant 438320 + first digit; first digit 6-9 invalid
  E2: {
    valid: [
      '0003831745', '0051330335', '1730773457', '1987654327', '2012345675', '2220467998',
      '3190519693', '3011219713', '4131220086', '4110919419', '5000083836', '5069696965',
    ],
    invalid: [
      '0121314151', '0036958466', '1000174716', '1975312468', '2260519349', '2004002175',
      '3780024149', '3015024274', '4968745438', '4005012150', '5000137454', '5221398871',
      '6221398879', '6742185327', '7793867322', '7900695413', '8001256238', '8303808900',
      '9703805111', '9006126433',
    ],
  },
  // Method E3: method 00, then 21
  E3: {
    valid: [
      '9290701', '539290858', '1501824', '1501832', '9290708', '539290854', '1501823', '1501831',
      '2345678909', '5678901237',
    ],
    invalid: ['0123456789', '2345678901', '5678901234', '7414398260'],
  },
  // Method E4: method 02, then 00
  E4: {
    valid: ['1501836', '9290702', '539290858', '1501824', '1501832', '9290701'],
    invalid: ['12345007', '87654005'],
  },
};
