import AIBudsSync
import AIBudsWire

/// A catalog held in memory: device names (any text, hostile ones included) mapped to files.
///
/// Names are ``/AIBudsWire/MediaFileName``s, compared by their UTF-8 bytes as a device's file system does:
/// `café` in NFC and in NFD are two different files, although Swift's `String` calls them equal.
public final class DictionaryDataPlaneCatalog: DataPlaneCatalog {
    private let files: Locked<[MediaFileName: DataPlaneFile]>

    /// Creates a catalog with these entries.
    public init(_ files: [String: DataPlaneFile] = [:]) {
        self.files = Locked(Dictionary(files.map { (MediaFileName($0.key), $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The file with this device name, or nil.
    public func file(named name: String) -> DataPlaneFile? { files.withLock { $0[MediaFileName(name)] } }

    /// Adds or replaces the file of a device name.
    public func set(_ file: DataPlaneFile, named name: String) { files.withLock { $0[MediaFileName(name)] = file } }

    /// Removes the file of a device name.
    public func remove(named name: String) { files.withLock { _ = $0.removeValue(forKey: MediaFileName(name)) } }
}
