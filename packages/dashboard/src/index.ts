export * from "./DashboardApp.ts"
export * from "./Html.ts"
export * from "./I18n.ts"
export * from "./Pages.ts"
