import Synchronization

/// A catalog held in memory: device names (any text, hostile ones included) mapped to files.
public final class DictionaryDataPlaneCatalog: DataPlaneCatalog {
    private let files: Mutex<[String: DataPlaneFile]>

    /// Creates a catalog with these entries.
    public init(_ files: [String: DataPlaneFile] = [:]) {
        self.files = Mutex(files)
    }

    /// The file with this device name, or nil.
    public func file(named name: String) -> DataPlaneFile? { files.withLock { $0[name] } }

    /// Adds or replaces the file of a device name.
    public func set(_ file: DataPlaneFile, named name: String) { files.withLock { $0[name] = file } }

    /// Removes the file of a device name.
    public func remove(named name: String) { files.withLock { _ = $0.removeValue(forKey: name) } }
}
