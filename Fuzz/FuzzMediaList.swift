// libFuzzer target `medialist`: the two readers of a Media `list` page (docs/protocol.md §3),
// differentially. `MediaListResponse.plainPage(from:)` reads a plain page straight from its bytes;
// anything else goes through the generic CBOR decoder and `Decodable`.
//
// Invariants on every input:
// - the plain reader accepts only what the generic path accepts, as the same page;
// - a page the generic path accepts, written by the project's encoder (the device's way), is read
//   by the plain reader as the same page (both agree or both reject, once the layout is plain),
//   unless a wire type is negative, which the plain reader leaves to the generic path by design;
// - no crash, hang or huge allocation (names of any length, counts near 2^64, deep nesting).

@testable import AIBudsCBOR
@testable import AIBudsWire
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMediaList(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    let plain = MediaListResponse.plainPage(from: input)
    let generic = try? CBORDecoder().decode(MediaListResponse.self, from: CBOR.decode(input))
    if let plain {
        precondition(generic == plain, "the plain page differs from the generic decoding: \(plain) vs \(String(describing: generic))")
    }
    if let generic {
        let encoded: Data
        do {
            encoded = try CBOREncoder().encode(generic)
        } catch {
            preconditionFailure("an accepted page does not encode: \(error)")
        }
        // The plain reader takes unsigned wire types only (a negative one goes the generic way,
        // by design): with those, it must read the encoder's page, and never read it differently.
        let reread = MediaListResponse.plainPage(from: encoded)
        if let reread {
            precondition(reread == generic, "the plain reader reads the encoder's page differently: \(generic) vs \(reread)")
        } else {
            precondition(generic.files.contains { $0.type < 0 }, "the plain reader refuses the encoder's page: \(generic)")
        }
        let again = try? CBORDecoder().decode(MediaListResponse.self, from: CBOR.decode(encoded))
        precondition(again == generic, "the generic decoder does not read the encoder's page")
        for file in generic.files {
            precondition(MediaFileName(file.name) == MediaFileName(file.name), "a name is not equal to itself")
        }
    }
    return 0
}
