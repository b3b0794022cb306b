export { parseEisRss, parseEisXml } from "./eaeu/parse.ts"
export * from "./gnumner/index.ts"
export { normalizePublicationNumber, parseTedSearchResponse, tedNextToken } from "./ted/parse.ts"
