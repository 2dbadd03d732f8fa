/** A text or a value a setting refuses, and why. */
export class Refused {
  constructor(readonly message: string) {}
}
