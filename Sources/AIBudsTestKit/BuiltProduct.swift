import Foundation

/// The executable product `name` (`aibuds`, `aibuds-crash-child`, ...) that `swift build` put
/// beside the test bundle; nil when it has not been built.
public func builtProduct(_ name: String) -> URL? {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        Bundle.main.bundleURL.deletingLastPathComponent(),
        Bundle.main.executableURL?.deletingLastPathComponent(),
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug"),
    ].compactMap { $0?.appendingPathComponent(name) }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// ``builtProduct(_:)``, or an error saying it is not built.
public func requireBuiltProduct(_ name: String) throws -> URL {
    guard let found = builtProduct(name) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the \(name) executable is not built"])
    }
    return found
}
