/**
 * Waits for the moment the socket server's shared session is idle (ExclusiveSocketServer.ts): no connection holds it
 * and nothing runs. The turn queue tells it when the session becomes idle; a stop's drain and the owner giving back
 * PGlite's memory may wait at once.
 */
export class IdleSignal {
  private readonly waiters = new Set<(idle: boolean) => void>()

  /** Resolves with true at once when `idleNow`, else when {@link idle} is called, or with false after `waitMs`. */
  wait(idleNow: boolean, waitMs: number): Promise<boolean> {
    if (idleNow) return Promise.resolve(true)
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer)
        this.waiters.delete(done)
        resolve(idle)
      }
      const timer = setTimeout(() => done(false), waitMs)
      this.waiters.add(done)
    })
  }

  /** The session is idle (or no longer anyone's to wait for): every waiter goes on. */
  idle(): void {
    for (const done of this.waiters) done(true) // a Set goes on past the entries its loop deletes
  }
}
