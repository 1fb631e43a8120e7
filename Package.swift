// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

// The `@RippleModel` macro needs swift-syntax, which takes minutes to build. Setting
// RIPPLE_WITHOUT_MACROS (to anything) leaves the macro's product, targets, tests and that
// dependency out of the package: CI builds them once, in its first test run, not again in
// the sanitizer runs.
let includeMacros = Context.environment["RIPPLE_WITHOUT_MACROS"] == nil

// The documentation plugin (`swift package generate-documentation`) is declared only when
// RIPPLE_DOCS is set (to anything), so `swift test` and the package's users never resolve it:
// `RIPPLE_DOCS=1 swift package generate-documentation --target Ripple`, or `.ci/check-docs`.
// Swift Package Index sets SPI_GENERATE_DOCS for its documentation builds (see .spi.yml).
let includeDocs = Context.environment["RIPPLE_DOCS"] != nil || Context.environment["SPI_GENERATE_DOCS"] != nil

let macroTargets: [Target] = [
    .macro(
        name: "RippleMacrosPlugin",
        dependencies: [
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        ]),
    .target(name: "RippleMacros", dependencies: ["Ripple", "RippleModels", "RippleStore", "RippleMacrosPlugin"]),
    .testTarget(
        name: "RippleMacrosTests",
        dependencies: [
            "RippleMacros", "RippleMacrosPlugin", "RippleStore",
            .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
        ]),
    // A model in a module that is main-actor isolated by default, as Xcode 26's app targets are.
    .testTarget(name: "RippleMacrosMainActorTests", dependencies: ["RippleMacros"]),
    // A to-do app written as the articles show it, in a main-actor module: every product,
    // with no concurrency annotation on the app's own types.
    .testTarget(
        name: "RippleTodoAppMainActorTests",
        dependencies: [
            "RippleMacros", "RippleStore", "RippleTesting", "RippleBindings",
        ]),
]

let package = Package(
    name: "Ripple",
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Ripple", targets: ["Ripple"]),
        .library(name: "RippleModels", targets: ["RippleModels"]),
        .library(name: "RippleStore", targets: ["RippleStore"]),
        .library(name: "RippleTesting", targets: ["RippleTesting"]),
        .library(name: "RippleBindings", targets: ["RippleBindings"]),
        .library(name: "RippleCombine", targets: ["RippleCombine"]),
        .library(name: "RippleLogging", targets: ["RippleLogging"]),
        .executable(name: "RippleExample", targets: ["RippleExample"]),
    ] + (includeMacros ? [.library(name: "RippleMacros", targets: ["RippleMacros"])] : []),
    dependencies: [
        // The optional products' dependencies: OpenCombine for RippleCombine off Apple
        // platforms, swift-log for RippleLogging.
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ] + (includeMacros ? [.package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.1"..<"604.0.0")] : [])
        + (includeDocs ? [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")] : []),
    targets: [
        // The calling thread's identity in one instruction, and the futex lock of Linux (see
        // `_Lock`): C, since Swift can neither read the thread pointer nor call the kernel's
        // futex and barrier directly.
        .target(name: "_RippleThread"),
        // The graph's unretained reference (`_Ref`), a module of its own so that its
        // transparent members are inlined in debug builds too (see `_Ref`).
        .target(name: "_RippleRef"),
        .target(name: "Ripple", dependencies: ["_RippleThread", "_RippleRef"]),
        .target(name: "RippleModels", dependencies: ["Ripple"]),
        .target(name: "RippleStore", dependencies: ["Ripple", "RippleModels"]),
        .target(name: "RippleTesting", dependencies: ["Ripple", "RippleStore"]),
        .target(name: "RippleBindings", dependencies: ["Ripple", "RippleModels"]),
        // Combine on Apple platforms, OpenCombine (the same API) elsewhere.
        .target(
            name: "RippleCombine",
            dependencies: [
                "Ripple", "RippleModels", "RippleStore",
                .product(
                    name: "OpenCombine", package: "OpenCombine",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])),
            ]),
        .target(name: "RippleLogging", dependencies: ["Ripple", .product(name: "Logging", package: "swift-log")]),
        .executableTarget(
            name: "RippleExample", dependencies: ["Ripple", "RippleModels", "RippleStore", "RippleBindings"]),
        .testTarget(name: "RippleTests", dependencies: ["Ripple"]),
        .testTarget(name: "RippleModelsTests", dependencies: ["RippleModels"]),
        .testTarget(name: "RippleMainActorTests", dependencies: ["RippleModels", "RippleStore"]),
        .testTarget(name: "RippleStoreTests", dependencies: ["RippleStore"]),
        .testTarget(name: "RippleTestingTests", dependencies: ["RippleTesting"]),
        .testTarget(name: "RippleBindingsTests", dependencies: ["RippleBindings", "RippleTesting"]),
        .testTarget(name: "RippleCombineTests", dependencies: ["RippleCombine"]),
        .testTarget(name: "RippleLoggingTests", dependencies: ["RippleLogging", "RippleStore"]),
        // RippleCombine and RippleLogging used as their articles show them, in main-actor modules
        // (the app-target settings below), with no concurrency annotation on the tests' types.
        .testTarget(name: "RippleCombineMainActorTests", dependencies: ["RippleCombine"]),
        // RippleBindings' targets bound to main-actor models, as app code binds its controls.
        .testTarget(name: "RippleBindingsMainActorTests", dependencies: ["RippleBindings", "RippleTesting"]),
        .testTarget(
            name: "RippleLoggingMainActorTests",
            dependencies: [
                "RippleLogging", "RippleStore", .product(name: "InMemoryLogging", package: "swift-log"),
            ]),
    ] + (includeMacros ? macroTargets : [])
)

// Settings shared by every target: Swift 6 mode with complete checking, and the
// internal invariant checks compiled into debug builds (the ones tests use). The main-actor
// test targets are compiled as Xcode 26 compiles a new app: every declaration on the main actor.
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .define("RIPPLE_INVARIANTS", .when(configuration: .debug)),
        ]
    if target.name.hasSuffix("MainActorTests") {
        target.swiftSettings! += [
            .defaultIsolation(MainActor.self),
            .enableUpcomingFeature("InferIsolatedConformances"),
            .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        ]
    }
}
