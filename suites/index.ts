/**
 * Every conformance suite, in the order of the spec: the operations, then what it states once for all
 * of them. Importing a suite registers its checks; a self-test fails when a *.checks.ts file is missing here.
 */
import './listPets/list.checks.js'
import './listPets/limit.checks.js'
import './listPets/status-filter.checks.js'
import './listPets/spellings.checks.js'
import './listPets/parameters-together.checks.js'
import './createPet/create.checks.js'
import './createPet/spellings.checks.js'
import './createPet/ill-formed-text.checks.js'
import './createPet/client-id.checks.js'
import './createPet/repeated-creates.checks.js'
import './createPet/edges.checks.js'
import './createPet/invalid-body.checks.js'
import './createPet/generated-bodies.checks.js'
import './getPet/get.checks.js'
import './getPet/spellings.checks.js'
import './sequences/sequences.checks.js'
import './auth/invalid-credentials.checks.js'
import './auth/precedence.checks.js'
import './auth/key-elsewhere.checks.js'
import './errors/error-body.checks.js'
import './responses/content-type.checks.js'
import './limits/rate-limits.checks.js'
import './versioning/version-segment.checks.js'

export { registeredChecks } from '../lib/checks/registry.js'
