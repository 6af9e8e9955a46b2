/** A synthetic person's sex, as names, surname forms and national ids are drawn for it. */
export type Gender = 'female' | 'male';
