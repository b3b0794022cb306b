export * from "./Api.ts"
export * from "./Authorization.ts"
export * from "./ErrorBody.ts"
export * from "./IssueMessage.ts"
