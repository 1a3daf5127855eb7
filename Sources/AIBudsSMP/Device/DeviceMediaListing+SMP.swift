import AIBuds
import AIBudsFoundation
import AIBudsSMPClient

extension DeviceMediaListing {
    /// The import engine's model of a list the SMP client read: wire types become `MediaFileType`s
    /// (unknown ones `unknown`), digests byte arrays.
    init(_ listing: SMPMediaListing) {
        self.init(generation: listing.generation, files: listing.files.map { entry in
            DeviceMediaEntry(
                id: entry.id, name: entry.name, type: MediaFileType(lenientRawValue: entry.type), size: entry.size,
                hasSixAxisData: entry.sixaxis, sha256: entry.sha256.map { Array($0) })
        })
    }
}
