export { parseArmepsDetail } from "./armeps.ts"
export { gnumnerId } from "./code.ts"
export { parseEauctionDetail } from "./eauction.ts"
export { parseGnumnerListing } from "./listing.ts"
