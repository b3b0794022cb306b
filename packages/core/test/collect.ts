// A full garbage collection for tests that hold objects weakly (a `WeakRef`) to show what a structure lets go of.
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/** A turn of the event loop (a WeakRef's target is kept until the job that made it ends), then a full collection. */
export const fullCollection = async (): Promise<void> => {
  setFlagsFromString("--expose-gc")
  const gc: () => void = runInNewContext("gc")
  await new Promise((resolve) => setTimeout(resolve, 0))
  gc()
}
