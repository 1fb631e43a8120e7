// swift-tools-version: 6.0
import PackageDescription

// The benchmark suite of Ripple: a package of its own, so that its dependency on OpenCombine
// never reaches Ripple's users. Run it with `swift run -c release RippleBenchmarks`.
let package = Package(
    name: "RippleBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    dependencies: [
        .package(name: "Ripple", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // glibc's mallinfo2(), to measure the bytes a node allocates.
        .target(name: "CMallocInfo"),
        .executableTarget(
            name: "RippleBenchmarks",
            dependencies: [
                "CMallocInfo",
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleStore", package: "Ripple"),
                .product(name: "RippleBindings", package: "Ripple"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                // The hand-written floor is meant as a lower bound: no dynamic exclusivity checks
                // in this module. Ripple, Observation and OpenCombine are built as they ship.
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
            ]
        ),
        // Writes to one kairo graph, untimed: what `count-instructions.sh` runs under callgrind.
        .executableTarget(
            name: "WriteLoop",
            dependencies: [.product(name: "Ripple", package: "Ripple")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Commits to one store scenario, untimed: what `count-instructions.sh --store` runs.
        .executableTarget(
            name: "CommitLoop",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"), .product(name: "RippleStore", package: "Ripple"),
                .product(name: "RippleModels", package: "Ripple"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
