// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Ripple",
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Ripple", targets: ["Ripple"]),
        .library(name: "RippleModels", targets: ["RippleModels"]),
        .executable(name: "RippleExample", targets: ["RippleExample"]),
    ],
    targets: [
        .target(name: "Ripple"),
        .target(name: "RippleModels", dependencies: ["Ripple"]),
        .executableTarget(name: "RippleExample", dependencies: ["Ripple", "RippleModels"]),
        .testTarget(name: "RippleTests", dependencies: ["Ripple"]),
        .testTarget(name: "RippleModelsTests", dependencies: ["RippleModels"]),
        .testTarget(name: "RippleMainActorTests", dependencies: ["RippleModels"]),
    ]
)

// Settings shared by every target: Swift 6 mode with complete checking, and the
// internal invariant checks compiled into debug builds (the ones tests use). The main-actor
// tests are compiled as Xcode 26 compiles a new app: every declaration on the main actor.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .define("RIPPLE_INVARIANTS", .when(configuration: .debug)),
    ]
    if target.name == "RippleMainActorTests" {
        target.swiftSettings! += [
            .defaultIsolation(MainActor.self),
            .enableUpcomingFeature("InferIsolatedConformances"),
            .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        ]
    }
}
