// swift-tools-version: 6.0
import PackageDescription

/// The example apps, each its own executable on this package's products:
/// - ImportMedia imports a device's media, as the vendor's "Import Media Files" page shows it. It
///   depends on the device core and the SMP link plugin only: no audio, video or AI library.
/// - AllInOneOffline, in the Swift 5 language mode, registers the XLFacility log plugin,
///   initializes everything with AIBudsAllInOne and uses the AI side offline.
let package = Package(
    name: "ImportMedia",
    dependencies: [.package(name: "AIBuds", path: "../..")],
    targets: [
        .executableTarget(
            name: "ImportMedia",
            dependencies: [
                .product(name: "AIBuds", package: "AIBuds"),
                .product(name: "AIBudsFoundation", package: "AIBuds"),
                .product(name: "AIBudsSMP", package: "AIBuds"),
            ]),
        .executableTarget(
            name: "AllInOneOffline",
            dependencies: [
                .product(name: "AIBuds", package: "AIBuds"),
                .product(name: "AIBudsAISDK", package: "AIBuds"),
                .product(name: "AIBudsAllInOne", package: "AIBuds"),
                .product(name: "AIBudsLog", package: "AIBuds"),
                .product(name: "AIBudsXLFacility", package: "AIBuds"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
