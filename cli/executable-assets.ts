/** The asset of the single executable that names what it carries: the package's version and a hash of every other asset (scripts/build-executable.ts writes it, cli/single-executable.ts reads it). */
export const IDENTITY_ASSET = 'identity'
