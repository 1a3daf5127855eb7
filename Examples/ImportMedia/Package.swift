// swift-tools-version: 6.0
import PackageDescription

/// An app that imports a device's media, as the vendor's "Import Media Files" page shows it. It
/// depends on the device core and the SMP link plugin only: no audio, video or AI library.
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
    ],
    swiftLanguageModes: [.v6]
)
