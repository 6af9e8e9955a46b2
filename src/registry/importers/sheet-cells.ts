/** Cell-level building blocks shared by the .xlsx and .xls readers. */

/** Row index 0 is spreadsheet row 1; missing cells are ''. Numbers come back as their shortest decimal text. */
export interface Sheet {
  readonly name: string;
  readonly rows: readonly (readonly string[])[];
}

/** 'A' -> 0, 'Z' -> 25, 'AA' -> 26. */
export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** Shortest decimal text of a number cell: 20250929, not 20250929.0 or 2.0250929E7. */
export function numberText(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER
    ? value.toFixed(0)
    : String(value);
}

/** Collects cells into dense rows. */
export class RowBuilder {
  private readonly rows: string[][] = [];

  set(row: number, column: number, text: string): void {
    const cells = (this.rows[row] ??= []);
    cells[column] = text;
  }

  /** Trailing empty cells are dropped: .xls stores empty strings that .xlsx leaves out, and both must read alike. */
  build(): string[][] {
    const rows: string[][] = [];
    for (let r = 0; r < this.rows.length; r++) {
      const cells = Array.from(this.rows[r] ?? [], (cell) => cell ?? '');
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      rows.push(cells);
    }
    return rows;
  }
}
