const width = (s: string) => [...s].length

const clip = (s: string, max: number) => (width(s) <= max ? s : `${[...s].slice(0, max - 1).join("")}…`)

/** A plain-text table with a header row; cells are clipped to `maxWidths`. */
export const table = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  options: { readonly maxWidths?: ReadonlyArray<number> } = {}
): string => {
  const clipped = [header, ...rows].map((row) =>
    row.map((cell, i) => clip(cell.replace(/\s+/gu, " "), options.maxWidths?.[i] ?? 80))
  )
  const widths = header.map((_, i) => Math.max(...clipped.map((row) => width(row[i] ?? ""))))
  return clipped
    .map((row) =>
      row
        .map((cell, i) => cell + " ".repeat((widths[i] ?? 0) - width(cell)))
        .join("  ")
        .trimEnd()
    )
    .join("\n")
}
