import { Schema } from "effect"

/** The three source families, in the order health reports list them. */
export const SourceCode = Schema.Literals(["ted", "gnumner", "eaeu"])
export type SourceCode = typeof SourceCode.Type

/** Every source code, in reporting order. */
export const sourceCodes: ReadonlyArray<SourceCode> = SourceCode.literals
