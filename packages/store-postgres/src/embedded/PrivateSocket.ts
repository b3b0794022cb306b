/** The embedded store's Unix socket, reachable by this user only. */
import * as Fs from "node:fs"
import type * as Net from "node:net"

/** Listens on `path` and makes the socket file mode 0600 (best effort: the data directory's own permissions apply). */
export const listenPrivately = (server: Net.Server, path: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once("error", onError)
    server.listen(path, () => {
      server.off("error", onError)
      try {
        Fs.chmodSync(path, 0o600)
      } catch {
        // best effort
      }
      resolve()
    })
  })
