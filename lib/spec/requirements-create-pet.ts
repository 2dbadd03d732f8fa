/** The requirements of POST /pets. */
import { CREATE, info, must, POLICY, type RequirementDefinition, should } from './requirement-definition.js'

export const createPetRequirements = {
  // ── createPet ───────────────────────────────────────────────────────────────
  'createPet/returns-201-pet': must({
    title: 'a valid NewPet is answered 201 with a Pet body that includes the assigned id',
    specText: 'Success: `201`, body is Animal (includes the assigned `id`).',
    source: CREATE,
    needsWrites: true,
  }),
  'createPet/body-schema': must({
    title: 'every 2xx answer of POST /pets is a valid Pet (id and categoryId within int64)',
    specText: 'An animal is all fields of NewPet plus `id`.',
    source: 'Resources and their fields › Animal',
    needsWrites: true,
  }),
  'createPet/echoes-fields': must({
    title: 'the created pet echoes name exactly, categoryId digit for digit and status when sent',
    specText: 'An animal is all fields of NewPet plus `id`.',
    source: POLICY,
    decision:
      'the body echoes `name`, `categoryId` (losslessly) and, when sent, `status`. Names are compared code point for code point, with no Unicode normalisation (a target that stores NFC fails); categoryId by exact value, so `5.0` sent and `5` returned are equal. Checked on fixed cases and on generated valid bodies.',
    needsWrites: true,
  }),
  'createPet/ids-unique': must({
    title: 'ids of created pets are distinct, compared digit for digit',
    specText: 'id: Unique identifier assigned by the service on creation.',
    source: 'Resources and their fields › Animal',
    decision:
      'Five creates sent at once get five ids; and every create of the run answered 201 is held to the ids of the creates answered before it, whichever check sent them (two identical bodies, a twin, an edited create): two creates answered with one id fail.',
    needsWrites: true,
  }),
  'createPet/round-trip-get': must({
    title: 'GET /pets/{id} returns the pet just created',
    specText: '`GET /pets/{id}` then returns the same pet.',
    source: POLICY,
    decision:
      'Within the consistency window (default 5 s, --consistency-window-ms; 0 means at once): the GET is repeated with backoff, a bounded number of times, until the pet shows. For generated bodies the GET is compared with the 201 answer (id, name, categoryId, and status when sent), so a wrong echo is blamed once, on echoes-fields.',
    needsWrites: true,
  }),
  'createPet/created-pet-listed': must({
    title: 'a created pet appears in GET /pets?status=S&limit=100 when that list holds fewer than 100 pets',
    specText: 'a created pet appears in `GET /pets?status=S&limit=100` when that list holds fewer than 100 pets.',
    source: POLICY,
    decision: 'Within the consistency window, as for createPet/round-trip-get: a list that lags behind the write is read again until the pet shows or the window closes.',
    needsWrites: true,
  }),
  'createPet/invalid-body-400': must({
    title: 'an invalid NewPet body is answered exactly 400 (not 422) with an Error body',
    specText: 'Errors: `400` (Error body; body is missing required fields or contains invalid values).',
    source: CREATE,
    decision:
      'Exactly 400. Covers missing or wrongly typed name/categoryId, categoryId not an integer or outside int64, status outside the enum, a body that is not a JSON object, malformed JSON, an empty body.',
    needsWrites: true,
  }),
  'createPet/invalid-body-not-created': must({
    title: 'an invalid NewPet body creates nothing',
    specText: 'Errors: `400` (… body is missing required fields or contains invalid values).',
    source: POLICY,
    decision:
      'Nothing created: a 2xx answer means it was; otherwise the refused body carries a run-unique marker (its name, else its categoryId) that must not appear in the list it would show in, when that list is complete (fewer than 100 items).',
    needsWrites: true,
  }),
  'createPet/content-encoding': must({
    title: 'a body with a Content-Encoding is decoded, refused with 400 or 415, or read as sent: never a 5xx, and a pet only from a valid NewPet',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY}b (Content-Encoding), RFC 9110 §8.4`,
    decision:
      'Sent with Content-Encoding gzip on a body that has that coding and on one that lacks it, an unknown coding, and identity. 201 passes when the pet is the NewPet as sent or as decoded; 400 or 415 pass with an Error body (INFO: which). RFC 9110 §8.4 makes 415 a MAY.',
    needsWrites: true,
    reportedByRun: true,
  }),
  'createPet/json-implementation-limits': info({
    title: 'what the service answers to JSON texts RFC 8259 leaves to the parser, and to NewPets nested deep, is recorded',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY}b (JSON text), RFC 8259 §9`,
    decision:
      'INFO: the i_ texts of JSONTestSuite as the body, its y_ texts as a member more, and members nested 512 and 10,000 arrays deep. Never a 5xx (responses/no-server-error).',
    needsWrites: true,
    reportedByRun: true,
  }),
  'createPet/invalid-body-edges': must({
    title: 'the edges of the body space are invalid bodies: {}, unknown properties only, name alone, categoryId alone: exactly 400, nothing created',
    specText: 'Request body (required), `application/json`: NewPet. `name` and `categoryId` are required.',
    source: `${POLICY} (the edges of the body space)`,
    decision:
      'Exactly 400 with an Error body. Nothing created: name alone and categoryId alone carry a marker the refused-pet search looks for; {} and a body of unknown properties only carry none a pet would show, so for them a 2xx answer is what shows a creation.',
    needsWrites: true,
  }),
  'createPet/client-id-not-honoured': must({
    title: 'an id sent in the body is never honoured: the service chooses the id, or refuses the body, and a pet that holds the sent id is left unchanged',
    specText: 'The client does not send `id`; the service assigns it.',
    source: `Resources and their fields › NewPet; ${POLICY} (a client-sent id)`,
    decision:
      'Sent twice: with an id no pet holds and with the id of an existing pet. Passes: 201 with an id the service chose, or 400 with an Error body; and the existing pet reads back unchanged. Fails: a 201 carrying the sent id, a pet then found under the sent id, or the existing pet changed.',
    needsWrites: true,
  }),
  'createPet/client-id-accepted': should({
    title: 'a NewPet that also carries an id is answered 201 (the schemas are open)',
    specText: 'The client does not send `id`; the service assigns it.',
    source: `${POLICY} (a client-sent id)`,
    decision: 'SHOULD: 201, since the schemas are open; a 400 with an Error body is allowed and only warned.',
    needsWrites: true,
  }),
  'createPet/concurrent-creates': must({
    title: 'creates that overlap in time each get their own id, and each pet reads back as sent',
    specText: 'id: Unique identifier assigned by the service on creation.',
    source: `${POLICY} (concurrent creates)`,
    decision:
      'Eight creates are sent at once (within --concurrency); every one acknowledged with 201 must carry a distinct id and read back by GET /pets/{id}, within the consistency window, with the name, categoryId and status sent.',
    needsWrites: true,
  }),
  'createPet/repeated-creates': must({
    title: 'the same NewPet body sent twice, one after the other or at once, creates two pets with distinct ids',
    specText: 'Add an animal: POST /pets. Success: 201, body is Animal (includes the assigned id). id: Unique identifier assigned by the service on creation.',
    source: `${POLICY} (repeated creates)`,
    decision:
      'POST is not idempotent (RFC 9110 §9.2.2): the same body, byte for byte, is sent twice one after the other and twice at once; each POST must be answered 201 with its own id, and each pet must read back by GET /pets/{id}, within the consistency window, as sent. A service that answers a repeated body with the pet it already made (a cache keyed by the body, double-submit protection) fails. So does one that takes the name for a key: two bodies that share their name and status only (another category) must make two pets, each read back as its own body, by GET and in the list of their status.',
    needsWrites: true,
  }),
  'createPet/integer-edges-round-trip': must({
    title: 'a categoryId at each edge of the narrower integer types reads back digit for digit in every view',
    specText: 'categoryId: integer, format int64, required.',
    source: `${POLICY} (integer edges)`,
    decision:
      'Every full run creates a pet with each of 0, ±1, ±(2^31 − 1), ±2^31, 2^32 − 1, 2^32, ±(2^53 − 1), ±2^53, ±(2^53 + 1), ±(2^63 − 1) and −2^63 as categoryId, whatever the seed, and compares it digit for digit in the 201 answer, GET /pets/{id} and the list of its status (when that list holds fewer than 100 pets). Inconclusive when --category-ids restricts the category ids. The generated bodies and the sequences draw the same edges too.',
    needsWrites: true,
  }),
  'createPet/long-names-kept': must({
    title: 'names of 255, 256, 1,024 and 4,096 code points, and of as many UTF-8 bytes, are stored and shown whole',
    specText: "name: string, required. The animal's name.",
    source: `${POLICY} (name lengths)`,
    decision:
      'The spec sets no maximum length, so a valid name of any length is stored whole. Every full run creates pets whose names are 255, 256, 1,024 and 4,096 code points long, and 255, 256, 1,024 and 4,096 UTF-8 bytes long made mostly of characters outside the BMP, and compares each name code point for code point in the 201 answer, GET /pets/{id} and the list of its status (when that list holds fewer than 100 pets).',
    needsWrites: true,
  }),
  'createPet/equivalent-spellings': must({
    title: 'a create spelled another way with the same meaning gets the answer the plain spelling gets',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY} (equivalent spellings; numbers a double misreads)`,
    decision:
      'A request `Content-Type` of `application/json` with parameters or in another letter case (RFC 9110 §8.3.1), the same JSON document spelled differently (`\\u0061` escapes, whitespace, member order), and an integer categoryId spelled `1.0`, `1e0`, `0.1e1` or `10e-1`: compared with the plain create on status and on the pet, its id aside; an integer spelling must be answered 201 and echoed as the integer.',
    needsWrites: true,
  }),
  'createPet/charset-label-ignored': should({
    title: 'a body labelled application/json with a charset that names another encoding is read as the JSON it is, not refused',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `RFC 8259 §11; ${POLICY} (equivalent spellings; request media types)`,
    decision:
      "RFC 8259 §11 gives a charset no effect on JSON, so the plain answer is the SHOULD. RFC 9110 §8.3.1 makes a charset name the octets' encoding, and UTF-8 octets labelled us-ascii, iso-8859-1 or windows-1252 are a message at odds with itself, which a recipient may refuse: 415 or 400 with an Error body, nothing created, warns here (Express's body-parser refuses every charset not named utf-*). The policy's MUST (a Content-Type with parameters gets the plain answer) names no such label, and where neither the spec nor a row decides, a rule is SHOULD at most. A 201 whose pet shows the name read in that encoding (`café` stored as `cafÃ©`) fails createPet/equivalent-spellings: a labelled body is held to the plain answer, not to another one.",
    needsWrites: true,
  }),
  'createPet/hazardous-names': must({
    title: 'names holding control characters, escape look-alikes, markup and quotes are stored and shown exactly',
    specText: 'name: string, required.',
    source: `${POLICY} (characters storage changes)`,
    decision:
      'Every full run, whatever the seed, creates names holding NUL and each other C0 and C1 control character, text that looks like a JSON escape (a backslash before `n`, `u0041`, `\\`, `"`), markup and quote characters, and reads each back exactly (after JSON decoding) in the 201, GET /pets/{id} and the list of its status.',
    needsWrites: true,
  }),
  'createPet/ill-formed-text': must({
    title: 'a name holding a lone surrogate is refused with 400, or stored and read back the same in every view; never a 5xx',
    specText: 'name: string, required.',
    source: `${POLICY} (text that is not Unicode)`,
    decision:
      'A name holding a lone surrogate escape (`\\ud800`): 400 with an Error body and nothing created, or 201 with the name read back the same in the 201, GET /pets/{id} and the list of its status (INFO: which is recorded); never a 5xx, and never a stored pet that makes a later read fail.',
    needsWrites: true,
  }),
  'createPet/request-media-types': must({
    title: 'a body labelled with another media type, or none, is answered 415 or 400 with an Error body, or 201 when it is a valid NewPet; never a 5xx',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY} (request media types)`,
    decision: 'A valid NewPet labelled `text/plain`, a form type, `application/xml` or nothing: 415 or 400 with an Error body, or 201 (INFO: which is recorded); never a 5xx.',
    needsWrites: true,
  }),
  'createPet/read-your-writes-lag': info({
    title: 'how long created pets took to show in GET /pets/{id} and in the lists is recorded',
    specText: 'Consistency between a write and later reads: not shown.',
    source: `${POLICY} (consistency)`,
    decision: 'INFO: the longest lag any read of a created pet saw, and how many reads had to wait; a pet still missing when the window closes fails the requirement that read it.',
    needsWrites: true,
    reportedByRun: true,
  }),
  'createPet/status-omitted': info({
    title: 'the status stored when status is omitted at creation is recorded',
    specText: 'Value of `status` when it is omitted at creation: not shown.',
    source: 'Resources and their fields › Gaps',
    decision: 'INFO: any value of the enum, or no field, passes.',
    needsWrites: true,
  }),
} satisfies Record<string, RequirementDefinition>
