import { Layer } from "effect"
import { RateLimiter } from "effect/persistence"
import type { SearchText } from "../TextQuery.ts"
import { AccountStoreOnMemory } from "./AccountStoreMemory.ts"
import { AlertStoreOnMemory } from "./AlertStoreMemory.ts"
import { ClassificationStoreMemory } from "./ClassificationStoreMemory.ts"
import { DeliveryStoreOnMemory } from "./DeliveryStoreMemory.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { SearchTextSimple } from "./memoryText.ts"
import { NoticeStoreOnMemory } from "./NoticeStoreMemory.ts"
import { OAuthStoreOnMemory } from "./OAuthStoreMemory.ts"
import { RatesStoreMemory } from "./RatesStoreMemory.ts"
import { SignInStoreOnMemory } from "./SignInStoreMemory.ts"
import { SourceRunStoreOnMemory } from "./SourceRunStoreMemory.ts"
import { TenderStoreOnMemory } from "./TenderStoreMemory.ts"
import { WatchlistStoreOnMemory } from "./WatchlistStoreMemory.ts"

/**
 * Every store port in memory over one shared state (exposed as `MemoryDb` for assertions): the in-memory twin of
 * store-postgres' `layerStore` (with the RateLimiter over its buckets), for unit tests of use cases that span ports,
 * with the given text analysis (also provided to the use cases under test).
 */
export const memoryStoreWith = (text: Layer.Layer<SearchText>) =>
  Layer.mergeAll(
    TenderStoreOnMemory,
    NoticeStoreOnMemory,
    AccountStoreOnMemory,
    WatchlistStoreOnMemory,
    AlertStoreOnMemory,
    DeliveryStoreOnMemory,
    SourceRunStoreOnMemory,
    SignInStoreOnMemory,
    OAuthStoreOnMemory,
    ClassificationStoreMemory,
    RatesStoreMemory,
    RateLimiter.layer.pipe(Layer.provide(RateLimiter.layerStoreMemory))
  ).pipe(Layer.provideMerge(MemoryDb.layer), Layer.provideMerge(text))

/** Every store port in memory, with the fakes' simple text analysis (`SearchTextSimple`). */
export const memoryStore = memoryStoreWith(SearchTextSimple)
