// libFuzzer target `mcuboot`: the MCUboot image parser (`MCUbootImage`), which reads every
// firmware image a peer uploads to the emulator and every image file the SDK is asked to send.
//
// Invariants: no crash or hang; an accepted image's parts lie inside the input in order (header ≥
// 32 bytes, hashed bytes ≤ TLV end ≤ input), its hash has 32 bytes; an image built from the
// accepted one's body and version parses back to the same version, sizes and hash, and verifies
// with the hash function it was built with while the input verifies only if its bytes have it.

@testable import AIBudsMCUboot
import Foundation

/// A stand-in for SHA-256 (the invariants need a function of the bytes, not a cryptographic one).
private func digest(_ data: Data) -> [UInt8] {
    var state = [UInt8](repeating: 0x5A, count: 32)
    for (index, byte) in data.enumerated() { state[index % 32] = state[index % 32] &* 31 &+ byte }
    return state
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMCUboot(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard let image = try? MCUbootImage(parsing: input) else { return 0 }
    precondition(image.headerSize >= MCUbootImage.headerStructureSize, "a header shorter than its fields")
    precondition(image.headerSize + image.bodySize <= image.hashedLength, "the body runs into the TLVs")
    precondition(image.hashedLength + 4 <= image.end && image.end <= input.count, "the TLV area lies outside the input")
    precondition(image.hash.count == 32, "a hash of \(image.hash.count) bytes")
    let body = input.subdata(in: image.headerSize..<image.headerSize + image.bodySize)
    let rebuilt = MCUbootImage.build(body: body, version: image.version, headerSize: image.headerSize,
                                     loadAddress: image.loadAddress, sha256: digest)
    guard let again = try? MCUbootImage(parsing: rebuilt) else { preconditionFailure("a built image does not parse") }
    precondition(again.version == image.version && again.bodySize == image.bodySize && again.headerSize == image.headerSize,
                 "the rebuilt image differs")
    precondition(again.hash == Data(digest(rebuilt.prefix(again.hashedLength))), "the built hash is not the image's")
    precondition((try? again.verify(rebuilt, sha256: digest)) != nil, "a built image does not verify")
    let verifies = (try? image.verify(input, sha256: digest)) != nil
    precondition(verifies == (Data(digest(input.prefix(image.hashedLength))) == image.hash), "verify disagrees with the hash")
    return 0
}
