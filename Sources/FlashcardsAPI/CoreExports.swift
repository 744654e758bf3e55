// The wire types carry FlashcardsCore's domain enums (`SchedulerKind`, `CardState`,
// `DurationText.Unit`, …) with their wire strings as raw values, so a client of the API and the SDK
// sees them without importing Core itself.
@_exported import FlashcardsCore
