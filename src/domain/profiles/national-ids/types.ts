import type { Rng } from '../../rng.js';

/** What an identifier may depend on: the person it belongs to (birth date and sex are encoded by some schemes). */
export interface IdSubject {
  readonly firstName: string;
  readonly lastName: string;
  readonly sex: 'female' | 'male';
  /** YYYY-MM-DD */
  readonly dateOfBirth: string;
}

/**
 * One national identifier scheme: its real format with its published check algorithm. `generate` draws a
 * synthetic value that passes `validate`; `agrees` checks what the value encodes about the subject, if anything.
 */
export interface IdScheme {
  /** Stable machine name, e.g. de_idnr. */
  readonly id: string;
  /** Human name, e.g. "Steuerliche Identifikationsnummer (IdNr)". */
  readonly name: string;
  /** Where the check algorithm is published. */
  readonly source: string;
  generate(subject: IdSubject, rng: Rng): string;
  validate(value: string): boolean;
  agrees(value: string, subject: IdSubject): boolean;
}

export const digitsOnly = (text: string): number[] => [...text].map((c) => c.charCodeAt(0) - 48);
