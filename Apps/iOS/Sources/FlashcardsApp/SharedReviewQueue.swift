#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

    /// The offline queue every study screen shares.
    @MainActor let sharedReviewQueue = OfflineReviewQueue(
        file: URL.applicationSupportDirectory.appendingPathComponent("pending-reviews.json"))
#endif
