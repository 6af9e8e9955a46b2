/** Number formatting for RESULTS.md: thousands separators, fixed decimals, a pass/fail word. */
export function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function dec(value: number, digits = 2): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function verdict(met: boolean): string {
  return met ? 'met' : '**NOT met**';
}

/** A markdown table from a header row and body rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
