/**
 * Code 128 (code set B) bar widths for the delivery card number, so a warehouse scanner can read
 * the card instead of someone typing 26 characters. Code set B covers printable ASCII (32-126),
 * which is what card numbers are made of; anything else gets no barcode (returns null).
 */

// Bar/space widths in modules for the symbol values 0-105 (ISO/IEC 15417): bar first, 11 modules each.
// Ten values a row, as laid out by hand (prettier-ignore): row n starts at value 10n.
// prettier-ignore
const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232',
];
const START_B = 104;
// the stop symbol with its final 2-module termination bar: 13 modules
const STOP = '2331112';

export { PATTERNS as CODE128_PATTERNS };

/** Symbol values of `text` in code set B: start, data, checksum (stop not included). */
export function code128Values(text: string): number[] | null {
  const data: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 32 || c > 126) return null;
    data.push(c - 32);
  }
  const checksum = data.reduce((sum, v, i) => sum + v * (i + 1), START_B) % 103;
  return [START_B, ...data, checksum];
}

/**
 * Alternating bar/space widths (in modules, starting with a bar) of the whole symbol, or null when
 * the text has characters outside code set B.
 */
export function code128Widths(text: string): number[] | null {
  const values = code128Values(text);
  if (!values) return null;
  return [...values.map((v) => PATTERNS[v]), STOP].join('').split('').map(Number);
}
