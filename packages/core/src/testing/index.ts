export * from "./AccountStoreMemory.ts"
export * from "./SourceStatusStoreMemory.ts"
export * from "./TenderStoreMemory.ts"
export * from "./records.ts"
