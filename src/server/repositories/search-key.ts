/**
 * What contact search compares (decisions.md §3: case-insensitive substrings of name, number and
 * e-mail): both the stored text and the query are folded by this one function, and a contact
 * matches when the query's key is a substring of one of its keys. The folding:
 *
 * - compatibility forms are unified (NFKD: `ﬁ` is `fi`, full-width `Ａ` is `A`);
 * - accents and other combining marks are ignored (`Zoë` is found by `zoe`, `Ñúñez` by `nunez`);
 * - case is folded for all of Unicode, not A–Z only (`ZOË`, `ÑÚÑEZ`, `STRASSE` for `straße`,
 *   `σ`/`ς`/`Σ` as one letter).
 *
 * The keys are stored beside the contact (migration 009) and indexed by the trigram index with
 * no folding of its own, so the index and a plain scan of the keys give exactly the same rows.
 */

const ASCII = /^[\x00-\x7f]*$/;
const MARKS = /\p{Mn}/gu;

export function searchKey(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  // Lower, upper, lower: full case folding as far as JavaScript has it (ẞ -> ß -> SS -> ss);
  // the final sigma's context rule is taken out by mapping ς to σ.
  const decomposed = text.normalize('NFKD').replace(MARKS, '');
  return decomposed.toLowerCase().toUpperCase().toLowerCase().replace(MARKS, '').replaceAll('ς', 'σ');
}
