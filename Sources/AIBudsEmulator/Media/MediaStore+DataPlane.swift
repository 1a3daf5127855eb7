import AIBudsWire
import Foundation

extension MediaStore: DataPlaneCatalog {
    /// The data plane's view of a device file (or six-axis sidecar): generated content is
    /// materialised to a cache file on first use.
    public func file(named name: String) -> DataPlaneFile? {
        guard let object = object(named: MediaFileName(name)) else { return nil }
        do {
            let url = try materialize(object)
            let size = Int64(clamping: object.size)
            return DataPlaneFile(id: object.id, size: size,
                                 etag: DataPlaneFile.etag(id: object.id, size: size, generation: object.changedGeneration),
                                 path: url.path)
        } catch {
            return nil
        }
    }
}
