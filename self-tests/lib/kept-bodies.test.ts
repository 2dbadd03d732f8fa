import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { keptForHar } from '../../lib/http/attempt-records.js'
import { bodyText, decodedBody } from '../../lib/http/decoded-bodies.js'
import { detached, excerpt } from '../../lib/http/excerpt.js'
import { excerptOfBody, headOfBody, KeptBodies } from '../../lib/http/kept-bodies.js'
import type { RecordedResponse } from '../../lib/http/traffic.js'
import { packageRoot } from '../../lib/spec/package-root.js'

const answer = (body: string): RecordedResponse => ({ status: 200, headers: {}, body, bodyBytes: Buffer.byteLength(body) })

/** Bodies of 10 bytes and over count; together they keep at most 120 bytes in memory. */
function bounded() {
  const forgotten: RecordedResponse[] = []
  const kept = new KeptBodies({ largeBytes: 10, budgetBytes: 120, forget: (response) => forgotten.push(response) })
  return { kept, forgotten }
}

describe('the answers a run keeps stay within a memory budget, and every body still reads as it came', () => {
  test('past the budget the oldest large bodies move out, read back exactly, and what was read from them is forgotten', () => {
    const { kept, forgotten } = bounded()
    // Text UTF-8 carries, the replacement character and characters outside the BMP included.
    const bodies = ['é😀 first answer, moved out first, \uFFFD', `${'x'.repeat(45)} second`, `${'y'.repeat(45)} third`]
    const answers = bodies.map(answer)
    for (const response of answers) kept.keep(response)
    expect(kept.movedOut).toBe(1)
    expect(forgotten).toEqual([answers[0]])
    expect(answers.map((response) => response.body)).toEqual(bodies)
    expect(Object.keys(answers[0] as RecordedResponse)).toContain('body')
  })

  test('small bodies are not counted, and the newest large body always stays in memory, however large', () => {
    const { kept, forgotten } = bounded()
    for (let index = 0; index < 50; index++) kept.keep(answer('[]'))
    kept.keep(answer('z'.repeat(500)))
    expect(kept.movedOut).toBe(0)
    expect(forgotten).toEqual([])
  })

  test('once discarded (the run closed), the files are gone and a moved-out body reads as its start, as evidence quotes it', () => {
    const { kept } = bounded()
    const long = answer(`${'a'.repeat(9000)}${'b'.repeat(1000)}`)
    kept.keep(long)
    kept.keep(answer('c'.repeat(200)))
    const folder = kept.folderOfMoved as string
    expect(existsSync(folder)).toBe(true)
    kept.discard()
    expect(existsSync(folder)).toBe(false)
    expect(long.body).toBe(excerpt(`${'a'.repeat(9000)}${'b'.repeat(1000)}`, 8192))
    kept.keep(answer('d'.repeat(500)))
    expect(kept.movedOut).toBe(1)
  })

  test('a quote of a moved-out body comes from its start in memory, the file untouched, and reads as a quote of the whole body', () => {
    const { kept } = bounded()
    const text = `é😀${'a'.repeat(9000)}${'b'.repeat(1000)}`
    const long = answer(text)
    kept.keep(long)
    kept.keep(answer('c'.repeat(200)))
    expect(kept.movedOut).toBe(1)
    // Without its file the body could not be read back: the quotes below need only its start.
    rmSync(kept.folderOfMoved as string, { recursive: true })
    for (const limit of [200, 4096, 8192]) expect(excerptOfBody(long, limit)).toBe(excerpt(text, limit))
    expect(headOfBody(long, 200)).toEqual({ head: text.slice(0, 200), length: text.length })
    // Past what the memory holds, the body itself is read, as before.
    expect(() => headOfBody(long, 9000)).toThrow(/ENOENT/)
    // A body still in memory is quoted as it is.
    const short = answer('[]')
    expect(headOfBody(short, 200)).toEqual({ head: '[]', length: 2 })
    expect(excerptOfBody(short, 1)).toBe(excerpt('[]', 1))
  })

  test('a text many answers carry costs its memory once: counted once, and moved out once, with every answer that carries it', () => {
    const { kept, forgotten } = bounded()
    const repeated = 'r'.repeat(100)
    const alike = [1, 2, 3, 4, 5].map(() => answer(repeated))
    for (const response of alike) kept.keep(response)
    expect(kept.movedOut).toBe(0)
    kept.keep(answer('s'.repeat(100)))
    // Over the budget now: the oldest text goes, with all five answers, in one file.
    expect(kept.movedOut).toBe(5)
    expect(forgotten).toEqual(alike)
    expect(readdirSync(kept.folderOfMoved as string)).toEqual(['1.txt'])
    expect(alike.map((response) => response.body)).toEqual(alike.map(() => repeated))
  })

  test('where no temporary file can be written, every body stays in memory and the run goes on', () => {
    const kept = new KeptBodies({ largeBytes: 10, budgetBytes: 120, forget: () => {}, parentFolder: '/proc/no-such-folder' })
    const answers = ['a', 'b', 'c', 'd'].map((letter) => answer(letter.repeat(100)))
    for (const response of answers) kept.keep(response)
    expect(kept.movedOut).toBe(0)
    expect(answers.map((response) => response.body)).toEqual(['a', 'b', 'c', 'd'].map((letter) => letter.repeat(100)))
  })

  test('a detached copy is the same text, lone surrogates included', () => {
    for (const text of ['plain', 'x\uD800y', '\uDC00', '😀é\u0000']) expect(detached(text)).toBe(text)
  })

  test.for([
    ['process.exit(3)', 'process.exit(3)', 3],
    ['an uncaught error', "throw new Error('uncaught')", 1],
    ['running out of work, its clients never closed', '', 0],
  ] as const)('a process that ends by %s, before its clients close, leaves no moved body behind', async ([, ending, code]) => {
    const parent = mkdtempSync(join(tmpdir(), 'petstore-kept-exit-'))
    // Three clients move bodies out, as a fleet's would; each leaves its folder to the process's exit.
    const script = `
      const listenersBefore = process.listenerCount('exit')
      const { KeptBodies } = await import(${JSON.stringify(pathToFileURL(join(packageRoot, 'dist/lib/http/kept-bodies.js')).href)})
      for (let client = 0; client < 3; client++) {
        const kept = new KeptBodies({ largeBytes: 10, budgetBytes: 120, forget: () => {}, parentFolder: ${JSON.stringify(parent)} })
        for (const letter of 'abc') kept.keep({ status: 200, headers: {}, body: letter.repeat(100), bodyBytes: 100 })
      }
      console.log(JSON.stringify({ folders: ${JSON.stringify(parent)} && (await import('node:fs')).readdirSync(${JSON.stringify(parent)}).length, exitListenersAdded: process.listenerCount('exit') - listenersBefore }))
      ${ending}
    `
    const outcome = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH ?? '' } }, (error, stdout) =>
        resolve({ code: error ? Number(error.code) : 0, stdout }),
      ),
    )
    expect(outcome.code).toBe(code)
    expect(JSON.parse(outcome.stdout)).toEqual({ folders: 3, exitListenersAdded: 1 })
    expect(readdirSync(parent)).toEqual([])
  })
})

describe('bodies decoded once', () => {
  test('a large body whose bytes repeat a recent one is the same string, however its chunks fell; other bytes are other text', () => {
    const bytes = Buffer.from(`[${'"é😀",'.repeat(20_000)}1]`)
    const whole = bodyText([bytes])
    expect(whole).toBe(bytes.toString('utf8'))
    // The same bytes, split elsewhere (inside a character too): the very same string.
    expect(Object.is(bodyText([bytes.subarray(0, 7), bytes.subarray(7, 70_001), bytes.subarray(70_001)]), whole)).toBe(true)
    const other = Buffer.from(bytes)
    other[other.length - 2] = 0x32
    const otherText = bodyText([other.subarray(0, 3), other.subarray(3)])
    expect(otherText).toBe(other.toString('utf8'))
    expect(otherText).not.toBe(whole)
    // A small body is decoded as it is, from any number of chunks.
    expect(bodyText([Buffer.from('[1,'), Buffer.from('2]')])).toBe('[1,2]')
  })

  test('bytes UTF-8 never holds are said so, small or large, split anywhere: a lone surrogate as CESU-8, Latin-1; U+FFFD itself is UTF-8', () => {
    const cesu8 = Buffer.concat([Buffer.from('{"name":"x'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])
    expect(decodedBody([cesu8.subarray(0, 11), cesu8.subarray(11)])).toMatchObject({ notUtf8: true })
    expect(decodedBody([Buffer.from('{"name":"caf\xe9"}', 'latin1')]).notUtf8).toBe(true)
    expect(decodedBody([Buffer.from('{"name":"\ufffd é 😀"}')]).notUtf8).toBeUndefined()
    const large = Buffer.concat([Buffer.from(`["${'a'.repeat(70_000)}`), Buffer.from([0xc3]), Buffer.from('"]')])
    expect(decodedBody([large]).notUtf8).toBe(true)
    // Remembered with the large body: the same bytes again say the same.
    expect(decodedBody([large.subarray(0, 5), large.subarray(5)]).notUtf8).toBe(true)
  })
})

describe('what the HAR file keeps of a request body', () => {
  test('a body cut at the limit keeps its whole size in octets (bodySize), UTF-8 text and octets alike', () => {
    const text = `{"name":"${'é'.repeat(5000)}"}`
    const kept = keptForHar(100, { method: 'POST', url: 'http://127.0.0.1/v1/pets', headers: {}, body: text, timeoutMs: 1 }, { response: answer('{}') })
    expect(kept.sent?.body?.length).toBeLessThan(200)
    expect(kept.sent?.bodyBytes).toBe(Buffer.byteLength(text))
    const octets = `{"name":"${'\xff'.repeat(300)}"}`
    const asOctets = keptForHar(100, { method: 'POST', url: 'http://127.0.0.1/v1/pets', headers: {}, body: octets, bodyIsOctets: true, timeoutMs: 1 }, { response: answer('{}') })
    expect(asOctets.sent?.bodyBytes).toBe(octets.length)
  })
})
