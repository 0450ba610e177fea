// How messages name the rows or lines of a file: several places said as one, in the words of the first.

/** Several places as one (`row 2`, `row 5` -> `rows 2, 5`), in the words of the first. */
export function placesOf(places: string[]): string {
  if (places.length === 1) return places[0];
  const word = places[0].split(' ')[0];
  return places.every((place) => place.startsWith(`${word} `))
    ? `${word}s ${places.map((place) => place.slice(word.length + 1)).join(', ')}`
    : places.join(', ');
}

/** `row 3`, `rows 3 and 4`, `rows 3, 4 and 5`. */
export function listed(places: string[]): string {
  const joined = placesOf(places);
  const last = joined.lastIndexOf(', ');
  return last < 0 ? joined : `${joined.slice(0, last)} and ${joined.slice(last + 2)}`;
}
