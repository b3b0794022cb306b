// A client of a Node process's inspector (Chrome DevTools Protocol over its WebSocket), for bench:memory: the
// server's V8 spaces, full collections and heap snapshots, without `--expose-gc` or code of the server's.

/** One page of V8's spaces and the process's memory, as text; each figure in MB. */
const spacesExpression = `(() => {
  const v8 = process.getBuiltinModule("node:v8")
  const mb = (n) => (n / 1048576).toFixed(1)
  const heap = v8.getHeapStatistics()
  const mem = process.memoryUsage()
  const lines = v8.getHeapSpaceStatistics().map((s) =>
    s.space_name.padEnd(28) + " used " + mb(s.space_used_size).padStart(7) + "  committed " +
    mb(s.space_size).padStart(7) + "  physical " + mb(s.physical_space_size).padStart(7))
  return [
    "v8 used " + mb(heap.used_heap_size) + ", committed " + mb(heap.total_heap_size) + ", physical " +
      mb(heap.total_physical_size) + ", limit " + mb(heap.heap_size_limit) + "; malloced " +
      mb(heap.malloced_memory) + " (peak " + mb(heap.peak_malloced_memory) + "); external " + mb(mem.external) +
      ", array buffers " + mb(mem.arrayBuffers) + "; rss " + mb(mem.rss),
    ...lines
  ].join("\\n")
})()`

export class Inspector {
  private next = 1
  private readonly waiting = new Map<number, (result: unknown) => void>()

  private readonly socket: WebSocket

  private constructor(socket: WebSocket) {
    this.socket = socket
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown }
      if (message.id === undefined) return
      this.waiting.get(message.id)?.(message.error === undefined ? message.result : { error: message.error })
      this.waiting.delete(message.id)
    })
  }

  /** Connects to the inspector listening on a loopback port (`--inspect=127.0.0.1:PORT`). */
  static async connect(port: number): Promise<Inspector> {
    const targets = (await fetch(`http://127.0.0.1:${port}/json/list`).then((res) => res.json())) as Array<{
      webSocketDebuggerUrl: string
    }>
    const url = targets[0]?.webSocketDebuggerUrl
    if (url === undefined) throw new Error(`no inspector target on port ${port}`)
    const socket = new WebSocket(url)
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve)
      socket.addEventListener("error", reject)
    })
    return new Inspector(socket)
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.next++
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      this.socket.send(JSON.stringify({ id, method, params }))
    })
  }

  async evaluate(expression: string): Promise<unknown> {
    const answer = (await this.send("Runtime.evaluate", { expression, returnByValue: true })) as {
      result?: { value?: unknown }
    }
    return answer.result?.value ?? answer
  }

  heapSpaces = async (): Promise<string> => String(await this.evaluate(spacesExpression))

  /** Full collections, twice (the second frees what the first's finalizers let go). */
  collectGarbage = async (): Promise<void> => {
    await this.send("HeapProfiler.collectGarbage")
    await this.send("HeapProfiler.collectGarbage")
  }

  /** Writes a heap snapshot where the server runs (the same machine), by its own `v8.writeHeapSnapshot`. */
  writeSnapshot = async (file: string): Promise<unknown> =>
    this.evaluate(`process.getBuiltinModule("node:v8").writeHeapSnapshot(${JSON.stringify(file)})`)

  close(): void {
    this.socket.close()
  }
}
