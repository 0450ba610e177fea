// How messages name the rows or lines of a file: several places said as one, in the words of the first.
import { countText } from '../../cli/text.js';

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

/**
 * Places as placesOf says them, cut to the first `first` and how many more (`rows 2, 3, ..., 11
 * and 30 more`): a warning or an error names a contact of a million rows in a short line.
 */
export function briefPlaces(place: string, first = 10): string {
  let cut = -1;
  for (let named = 0; named < first; named++) {
    cut = place.indexOf(', ', cut + 1);
    if (cut < 0) return place;
  }
  let more = 1;
  for (let at = place.indexOf(', ', cut + 1); at >= 0; at = place.indexOf(', ', at + 1)) more += 1;
  return `${place.slice(0, cut)} and ${countText(more)} more`;
}
