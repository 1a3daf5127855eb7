// libFuzzer target `announcement`: the discovery announcement (docs/protocol.md §5), the JSON file
// any local process can drop in the announcement folder, as scanners read it (`JSONDecoder`, at
// most 64 KiB).
//
// Invariants: no crash or hang; an accepted announcement encodes, and its encoding decodes to the
// same announcement (round trip), and encoding that is a fixed point.

@testable import AIBudsWire
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnnouncement(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard input.count < 64 * 1024, let announcement = try? JSONDecoder().decode(DiscoveryAnnouncement.self, from: input) else {
        return 0
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let encoded: Data
    do {
        encoded = try encoder.encode(announcement)
    } catch {
        preconditionFailure("an accepted announcement does not encode: \(error)")
    }
    let again: DiscoveryAnnouncement
    do {
        again = try JSONDecoder().decode(DiscoveryAnnouncement.self, from: encoded)
    } catch {
        preconditionFailure("an encoded announcement does not decode: \(error)")
    }
    precondition(Array(again.name.utf8) == Array(announcement.name.utf8) && again == announcement, "the announcement changes through JSON")
    precondition((try? encoder.encode(again)) == encoded, "encoding is not a fixed point")
    return 0
}
