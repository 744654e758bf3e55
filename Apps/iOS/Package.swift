// swift-tools-version:6.0
// The iOS app: thin SwiftUI views over FlashcardsAppCore (the root package), where all behaviour
// lives and is tested on Linux. SwiftUI exists on Apple's systems only: open this folder in Xcode
// (see README.md); `swift build` at the repository's root never builds it.
import PackageDescription

let package = Package(
    name: "FlashcardsApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "FlashcardsApp", targets: ["FlashcardsApp"])],
    // Named explicitly: a path dependency is otherwise named after its folder, which is the
    // clone's name.
    dependencies: [.package(name: "smart-flashcards", path: "../..")],
    targets: [
        .target(
            name: "FlashcardsApp",
            dependencies: [.product(name: "FlashcardsAppCore", package: "smart-flashcards")]
        )
    ]
)
