/** Thrown where a test makes the process die: nothing after it in that process runs. */
export class SimulatedCrash extends Error {
  override name = 'SimulatedCrash';
}
