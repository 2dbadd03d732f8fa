/** The most arrivals (times in ms, in order) within any window of `windowMs`: what a server counting requests per second sees at worst. */
export function mostWithin(arrivals: readonly number[], windowMs: number): number {
  let most = 0
  let first = 0
  for (let last = 0; last < arrivals.length; last++) {
    while ((arrivals[last] as number) - (arrivals[first] as number) >= windowMs) first++
    most = Math.max(most, last - first + 1)
  }
  return most
}
