// swift-tools-version: 6.0
import PackageDescription

/// Every library module is also a library product of the same name, so an app depends on exactly
/// what it imports.
let libraries = [
    "AIBudsLog", "AIBudsFoundation", "AIBudsDigest", "AIBudsWire", "AIBudsNet", "AIBuds", "AIBudsSMPClient",
    "AIBudsSMP", "AIBudsEmulator", "TopStepComKit", "AIBudsAllInOne", "AIBudsTestKit",
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
        // The SMP client stands alone: a tool that only speaks SMP does not link the SDK.
        .target(name: "AIBudsSMPClient", dependencies: ["AIBudsWire", "AIBudsNet", "AIBudsLog", "AIBudsDigest"]),
        .target(name: "AIBudsSMP", dependencies: ["AIBuds", "AIBudsSMPClient", "AIBudsWire", "AIBudsNet"]),
        .target(name: "AIBudsEmulator", dependencies: [
            "AIBudsWire", "AIBudsFoundation", "AIBudsLog", "AIBudsNet", "AIBudsDigest",
        ]),
        .target(name: "TopStepComKit", dependencies: ["AIBuds", "AIBudsSMPClient", "AIBudsWire", "AIBudsDigest"]),
        .target(name: "AIBudsAllInOne", dependencies: ["AIBuds", "AIBudsSMP"]),
        .target(name: "AIBudsTestKit", dependencies: ["AIBuds", "AIBudsSMPClient", "AIBudsWire", "AIBudsEmulator"]),
        // Release builds link the Swift runtime and Foundation statically: the command starts in
        // about 4 ms instead of 7 (no symbol binding across a dozen shared libraries). The
        // toolchain's lld links them (gold warns about glibc's mktemp inside static Foundation).
        .executableTarget(
            name: "aibuds",
            dependencies: [
                "AIBuds", "AIBudsSMPClient", "AIBudsSMP", "AIBudsWire", "AIBudsEmulator", "AIBudsAllInOne", "TopStepComKit",
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
            "AIBuds", "AIBudsEmulator", "AIBudsNet", "AIBudsWire", "AIBudsDigest", "AIBudsLog", "AIBudsSMPClient",
        ]),
        .testTarget(name: "AIBudsLogTests", dependencies: ["AIBudsLog"]),
        .testTarget(name: "AIBudsWireTests", dependencies: ["AIBudsWire", "AIBudsDigest"]),
        .testTarget(name: "AIBudsSMPClientTests", dependencies: [
            "AIBudsSMPClient", "AIBudsTestKit", "AIBudsEmulator", "AIBudsWire", "AIBudsNet", "AIBudsDigest",
        ]),
        .testTarget(name: "AIBudsSMPTests", dependencies: [
            "AIBudsSMP", "AIBudsSMPClient", "AIBuds", "AIBudsWire", "AIBudsTestKit", "AIBudsEmulator",
        ]),
        .testTarget(name: "AIBudsEmulatorTests", dependencies: ["AIBudsEmulator", "AIBudsSMPClient", "AIBudsTestKit"]),
        .testTarget(name: "TopStepComKitTests", dependencies: [
            "TopStepComKit", "AIBuds", "AIBudsSMPClient", "AIBudsSMP", "AIBudsWire", "AIBudsEmulator", "AIBudsTestKit",
            "AIBudsAllInOne",
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
