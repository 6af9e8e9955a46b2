/**
 * German umlauts and sharp s written without them (DIN 5007-2 spelling: ä -> ae, ß -> ss), as people type them
 * and as e-mail addresses and passports spell them. Used where a name must meet its umlaut-free spelling.
 */
export const umlautExpansions: Readonly<Record<string, string>> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  ẞ: 'SS',
};
