/**
 * The components a free-text Australian address is parsed into. Every text field is in
 * G-NAF's canonical form: upper case, single spaces, street types as STREET_TYPE_AUT codes
 * (the full word, "STREET"), suffixes as STREET_SUFFIX_AUT codes ("W"), flat and level types
 * as their AUT codes, states as abbreviations.
 */
export interface ParsedAddress {
  /** The input, trimmed; kept for messages. */
  readonly input: string;
  readonly flat: { type: string | null; number: number; prefix: string | null; suffix: string | null } | null;
  readonly level: { type: string; number: number | null; prefix: string | null; suffix: string | null } | null;
  readonly buildingName: string | null;
  /** House number, or the first number of a range ("41-47" gives 41 and 47). */
  readonly number: {
    first: number;
    firstSuffix: string | null;
    last: number | null;
    lastSuffix: string | null;
  } | null;
  /** Set only when the text names a locality and nothing else ("Eight Mile Plains QLD"); then there are no readings. */
  readonly locality: string | null;
  /** "Lot 16": only when no house number was given. */
  readonly lot: string | null;
  /**
   * Ways to read the rest of the address as street and locality, most likely first. "72 Park
   * Road West Huntly" reads as PARK / ROAD / W / HUNTLY, but also as PARK / ROAD / null /
   * WEST HUNTLY; the matcher tries each against the database.
   */
  readonly readings: readonly StreetReading[];
  readonly state: string | null;
  /** How the state was written: "VIC" or "VICTORIA" (spelled out). */
  readonly stateSpelledOut: boolean;
  readonly postcode: string | null;
  /** "Australia" (or "AU", "AUS") was written at the end. */
  readonly trailingCountry: boolean;
  /** Tokens that could not be placed: the matcher treats a parse with leftovers as tolerant only. */
  readonly leftovers: readonly string[];
}

export interface StreetReading {
  /** Street name tokens in order, upper case ("SPOTTED GUM"). */
  readonly streetName: string;
  /** STREET_TYPE_AUT code, or null when none was written. */
  readonly streetType: string | null;
  /** How the type was written, upper case ("ST" or "STREET"); null when none. */
  readonly streetTypeAsWritten: string | null;
  /** STREET_SUFFIX_AUT code, or null. */
  readonly streetSuffix: string | null;
  /** Locality name, upper case, or null when none was written. */
  readonly locality: string | null;
}
