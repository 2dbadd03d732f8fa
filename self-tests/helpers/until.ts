/**
 * Waits until `condition` holds, looking again at every turn of the timers: the synchronisation on a state
 * the test cannot be told about (a child's output, requests at a target), never a fixed sleep.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
}
