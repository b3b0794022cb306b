/**
 * A wait for the moment the socket server's shared session is idle (ExclusiveSocketServer.ts): no connection holds
 * it and nothing runs. One waiter at a time; the turn queue tells it when the session becomes idle.
 */
export class IdleSignal {
  private waiter: ((idle: boolean) => void) | undefined

  /** Resolves with true at once when `idleNow`, else when {@link idle} is called, or with false after `waitMs`. */
  wait(idleNow: boolean, waitMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer)
        this.waiter = undefined
        resolve(idle)
      }
      const timer = setTimeout(() => done(false), waitMs)
      if (idleNow) return done(true)
      this.waiter = done
    })
  }

  /** The session is idle (or no longer anyone's to wait for): the waiter, if any, goes on. */
  idle(): void {
    this.waiter?.(true)
  }
}
