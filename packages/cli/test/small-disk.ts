// A small file system for full-disk tests: a tmpfs mounted for the test, filled and freed on demand.
import { execFileSync, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** A mounted tmpfs of a few hundred MiB. */
export interface SmallDisk {
  readonly dir: string
  /** Takes all free space but `leaveBytes` (one preallocated file). */
  readonly fill: (leaveBytes: number) => void
  /** Gives the space taken by `fill` back. */
  readonly free: () => void
  readonly unmount: () => void
}

/**
 * Mounts a tmpfs of `sizeMiB`. Root can (CI runs the tests as root); another user can run the tests in a
 * user and mount namespace where it is root: `unshare --user --map-root-user --mount npx vitest run ...`.
 * Without either the test fails, saying so: it is never skipped.
 */
export const mountSmallDisk = (sizeMiB: number): SmallDisk => {
  const dir = Fs.mkdtempSync(join(tmpdir(), "tfd-"))
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMiB}m,mode=0700`, "tmpfs", dir], {
    encoding: "utf8"
  })
  if (mounted.status !== 0) {
    Fs.rmSync(dir, { recursive: true, force: true })
    const reason = (mounted.stderr || String(mounted.error)).trim()
    throw new Error(
      `This test needs a small file system and could not mount a tmpfs (${reason}). ` +
        "Run it as root (as CI does), or as a user inside a user and mount namespace: " +
        "unshare --user --map-root-user --mount npx vitest run <this file>"
    )
  }
  const filler = join(dir, "filler")
  const free = () => Fs.rmSync(filler, { force: true })
  return {
    dir,
    fill: (leaveBytes) => {
      free()
      const stats = Fs.statfsSync(dir)
      execFileSync("fallocate", ["-l", String(stats.bavail * stats.bsize - leaveBytes), filler])
    },
    free,
    unmount: () => {
      spawnSync("umount", ["--lazy", dir])
      Fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
