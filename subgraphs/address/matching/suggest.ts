/**
 * Typed text to the search-key prefixes autocomplete looks up. The search key is the address
 * with street types spelled out ("72 DWYER STREET HUNTLY VIC 3551"), so a finished word typed
 * as an abbreviation ("RD") becomes its full word, and a last word still being typed is
 * looked up both as typed and, when it is a complete abbreviation, spelled out.
 */
import { streetTypeCode } from './vocabulary.ts';

export type SuggestionQuery = { prefixes: string[]; flatNumber: number | null };

const FLAT_WORDS = /^(?:UNIT|U|APARTMENT|APT|FLAT|SHOP|SUITE|VILLA|TOWNHOUSE)\s*(\d+)[A-Z]?\s*[,/\s]\s*/;

export function suggestionQuery(typed: string): SuggestionQuery {
  let text = typed.toUpperCase().replace(/[,]+/g, ' ').replace(/\s+/g, ' ').replace(/^\s+/, '');
  let flatNumber: number | null = null;
  const slash = /^(\d+)[A-Z]?\s*\/\s*(?=\d)/.exec(text);
  const word = FLAT_WORDS.exec(text);
  if (slash) {
    flatNumber = Number(slash[1]);
    text = text.slice(slash[0].length);
  } else if (word) {
    flatNumber = Number(word[1]);
    text = text.slice(word[0].length);
  }
  const finished = /\s$/.test(text);
  const tokens = text.trim().split(' ').filter(Boolean);
  if (tokens.length === 0) return { prefixes: [], flatNumber };
  // the number and the first word of the street name are never types
  const spell = (token: string, index: number) => (index >= 2 ? (streetTypeCode(token) ?? token) : token);
  const complete = finished ? tokens : tokens.slice(0, -1);
  const head = complete.map(spell).join(' ');
  const join = (last: string) => (head ? `${head} ${last}` : last);
  if (finished) return { prefixes: [`${head} `], flatNumber };
  const last = tokens[tokens.length - 1]!;
  const variants = [join(last)];
  const spelled = spell(last, tokens.length - 1);
  if (spelled !== last && !spelled.startsWith(last)) variants.push(join(spelled));
  return { prefixes: variants, flatNumber };
}
