import Foundation

/// Creates a new, empty directory under the system's temporary directory and returns it; its name
/// holds `label` (letters and digits only, the calling function's name by default) and a UUID, so
/// concurrent tests never share one. The caller removes it when done.
public func makeTemporaryDirectory(_ label: String = #function) throws -> URL {
    let safe = label.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(60)
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "aibuds-\(safe)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
