// node scripts/run-ts.mjs packages/cli/bench/snapshot.ts FILE.heapsnapshot [TOP]
// A heap snapshot's self sizes by kind of node and by constructor (or string, array, code...), largest first, in MB.
import { readFileSync } from "node:fs"

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: Array<string>; readonly node_types: Array<unknown> } }
  readonly nodes: Array<number>
  readonly strings: Array<string>
}

const [file = "", top = "30"] = process.argv.slice(2)
const { snapshot, nodes, strings }: Snapshot = JSON.parse(readFileSync(file, "utf8"))
const fields = snapshot.meta.node_fields
const types = snapshot.meta.node_types[0]
const typeNames = Array.isArray(types) ? types.map(String) : []
const [typeAt, nameAt, sizeAt] = [fields.indexOf("type"), fields.indexOf("name"), fields.indexOf("self_size")]
const byType = new Map<string, number>()
const byName = new Map<string, { size: number; count: number }>()
for (let i = 0; i < nodes.length; i += fields.length) {
  const type = typeNames[nodes[i + typeAt] ?? 0] ?? "?"
  const size = nodes[i + sizeAt] ?? 0
  byType.set(type, (byType.get(type) ?? 0) + size)
  const name = type === "object" || type === "closure" ? `${type} ${strings[nodes[i + nameAt] ?? 0]}` : type
  const entry = byName.get(name) ?? { size: 0, count: 0 }
  entry.size += size
  entry.count += 1
  byName.set(name, entry)
}
const mb = (n: number) => (n / 1048576).toFixed(1).padStart(7)
let total = 0
for (const size of byType.values()) total += size
process.stdout.write(`total ${mb(total)} MB\nby kind:\n`)
for (const [type, size] of [...byType].toSorted(([, a], [, b]) => b - a)) process.stdout.write(`${mb(size)}  ${type}\n`)
process.stdout.write(`largest by constructor:\n`)
for (const [name, { size, count }] of [...byName].toSorted(([, a], [, b]) => b.size - a.size).slice(0, Number(top)))
  process.stdout.write(`${mb(size)}  ${String(count).padStart(9)}  ${name.slice(0, 90)}\n`)
