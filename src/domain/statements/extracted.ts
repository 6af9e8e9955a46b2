/** What the statement readers (holder, period, balances, rows) hand back: a value and where it was read. */
/** Where a value was read: the page and the line's text (cut to the evidence bound by the caller). */
export interface Found<T> {
  readonly value: T;
  readonly page: number;
  readonly text: string;
}

export interface Transaction {
  readonly date: string; // ISO
  readonly description: string;
  readonly amount: number; // minor units, negative = debit
  readonly balance: number | null;
  readonly page: number;
  readonly text: string;
  /** Font of the amount as drawn; null when unknown (OCR). */
  readonly amountFont: string | null;
  /** The direction is known (printed sign or marker, the row balance, or a document that signs its debits). */
  readonly signKnown: boolean;
  /** The booking line just above could not be read, so this row's balance does not follow from the one before. */
  readonly gapBefore: boolean;
}
