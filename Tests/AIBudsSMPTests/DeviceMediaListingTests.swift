import AIBuds
import AIBudsFoundation
@testable import AIBudsSMP
import AIBudsSMPClient
import AIBudsWire
import Foundation
import Testing

/// The device layer's reading of the media list the SMP client returns in wire terms.
@Suite struct DeviceMediaListingTests {
    @Test func wireEntriesBecomeTheImportEnginesModel() {
        let digest = Data(repeating: 7, count: 32)
        let listing = DeviceMediaListing(SMPMediaListing(generation: 9, files: [
            MediaFileEntry(id: "a", name: "a.jpg", type: 1, size: 10, sixaxis: false, sha256: digest),
            MediaFileEntry(id: "b", name: "b.mp4", type: 3, size: 20, sixaxis: true),
            MediaFileEntry(id: "c", name: "c.xyz", type: 42, size: 30, sixaxis: false),
        ]))
        #expect(listing == DeviceMediaListing(generation: 9, files: [
            DeviceMediaEntry(id: "a", name: "a.jpg", type: .image, size: 10, hasSixAxisData: false, sha256: Array(digest)),
            DeviceMediaEntry(id: "b", name: "b.mp4", type: .video, size: 20, hasSixAxisData: true),
            DeviceMediaEntry(id: "c", name: "c.xyz", type: .unknown, size: 30, hasSixAxisData: false),
        ]))
    }
}
