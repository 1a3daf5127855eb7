// swift-tools-version: 6.0
import PackageDescription

/// Every library module is also a library product of the same name, so an app depends on exactly
/// what it imports.
let libraries = [
    "AIBudsLog", "AIBudsFoundation", "AIBudsDigest", "AIBudsWire", "AIBudsNet", "AIBuds", "AIBudsSMP",
    "AIBudsEmulator", "TopStepComKit", "AIBudsAllInOne", "AIBudsTestKit", "AIBudsStabilization",
]

let package = Package(
    name: "AIBuds",
    platforms: [.macOS(.v15)],
    products: libraries.map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "aibuds", targets: ["aibuds"]),
    ],
    targets: [
        .target(name: "AIBudsLog"),
        .target(name: "AIBudsFoundation", dependencies: ["AIBudsLog"]),
        .systemLibrary(name: "CCrypto"),
        .target(name: "AIBudsDigest", dependencies: ["CCrypto"]),
        .target(name: "AIBudsWire", dependencies: ["AIBudsFoundation", "AIBudsDigest"]),
        .target(name: "AIBudsNet", dependencies: ["AIBudsLog"]),
        .target(name: "AIBuds", dependencies: ["AIBudsWire", "AIBudsFoundation", "AIBudsLog", "AIBudsNet", "AIBudsDigest"]),
        .target(name: "AIBudsSMP", dependencies: ["AIBuds", "AIBudsWire", "AIBudsNet"]),
        .target(name: "AIBudsEmulator", dependencies: [
            "AIBudsWire", "AIBudsFoundation", "AIBudsLog", "AIBudsNet", "AIBudsDigest",
        ]),
        .target(name: "TopStepComKit", dependencies: ["AIBuds", "AIBudsSMP", "AIBudsWire", "AIBudsDigest"]),
        // FFmpeg's libraries from Debian (libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev).
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        .target(name: "AIBudsStabilization", dependencies: ["AIBuds", "AIBudsFoundation", "CFFmpeg"]),
        .target(name: "AIBudsAllInOne", dependencies: ["AIBuds", "AIBudsSMP", "AIBudsStabilization"]),
        // Rendered clips with known camera motion, their sidecars, and an independent motion
        // estimate: for the stabilization tests, the benchmark and the emulator's videos.
        .target(name: "AIBudsSyntheticVideo", dependencies: ["AIBudsStabilization", "CFFmpeg"]),
        .executableTarget(name: "aibuds-bench-stabilize", dependencies: ["AIBudsStabilization", "AIBudsSyntheticVideo"]),
        .target(name: "AIBudsTestKit", dependencies: ["AIBuds", "AIBudsSMP", "AIBudsWire", "AIBudsEmulator"]),
        // Release builds link the Swift runtime and Foundation statically: the command starts in
        // about 4 ms instead of 7 (no symbol binding across a dozen shared libraries). The
        // toolchain's lld links them (gold warns about glibc's mktemp inside static Foundation).
        .executableTarget(
            name: "aibuds",
            dependencies: [
                "AIBuds", "AIBudsSMP", "AIBudsWire", "AIBudsEmulator", "AIBudsAllInOne", "TopStepComKit", "AIBudsStabilization",
                "AIBudsSyntheticVideo",
            ],
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-use-ld=lld", "-Xlinker", "--start-group"]
                        + ["Foundation", "FoundationEssentials", "FoundationInternationalization", "CoreFoundation",
                           "_FoundationICU", "_FoundationCShims", "_FoundationCollections", "swiftSynchronization",
                           "swiftDispatch", "dispatch", "BlocksRuntime", "swift_Concurrency", "swift_StringProcessing",
                           "swift_RegexParser", "swift_Builtin_float", "swiftGlibc", "swiftCore", "stdc++"]
                        .flatMap { ["-Xlinker", "-l\($0)"] } + ["-Xlinker", "--end-group"],
                    .when(platforms: [.linux], configuration: .release)),
            ]),
        .executableTarget(name: "aibuds-bench-http", dependencies: [
            "AIBuds", "AIBudsEmulator", "AIBudsNet", "AIBudsWire", "AIBudsDigest", "AIBudsLog", "AIBudsSMP",
        ]),
        .testTarget(name: "AIBudsLogTests", dependencies: ["AIBudsLog"]),
        .testTarget(name: "AIBudsStabilizationTests", dependencies: [
            "AIBudsStabilization", "AIBudsSyntheticVideo", "AIBuds", "AIBudsFoundation", "AIBudsTestKit", "AIBudsAllInOne", "CFFmpeg",
        ]),
        .testTarget(name: "AIBudsWireTests", dependencies: ["AIBudsWire", "AIBudsDigest"]),
        .testTarget(name: "AIBudsSMPTests", dependencies: ["AIBudsSMP", "AIBudsTestKit", "AIBudsEmulator"]),
        .testTarget(name: "AIBudsEmulatorTests", dependencies: ["AIBudsEmulator", "AIBudsSMP", "AIBudsTestKit"]),
        .testTarget(name: "TopStepComKitTests", dependencies: [
            "TopStepComKit", "AIBuds", "AIBudsSMP", "AIBudsWire", "AIBudsEmulator", "AIBudsTestKit", "AIBudsAllInOne",
        ]),
        .testTarget(name: "AIBudsTests", dependencies: [
            "AIBuds", "AIBudsSMP", "AIBudsEmulator", "AIBudsTestKit", "AIBudsAllInOne", "TopStepComKit",
        ]),
        // The seed's media import example must compile unchanged in the Swift 5 language mode too.
        .testTarget(
            name: "ImportSwift5Tests", dependencies: ["AIBuds", "AIBudsFoundation"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
