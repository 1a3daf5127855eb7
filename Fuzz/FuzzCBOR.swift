// libFuzzer target `cbor`: the strict CBOR decoder on arbitrary bytes.
//
// Built by scripts/fuzz.sh together with the AIBudsWire sources. Besides "no crash, no hang, no huge
// allocation" (the sanitizer and libFuzzer's limits check those), every accepted input must satisfy:
// its deterministic encoding decodes again, and encoding is a fixed point
// (encode(decode(encode(x))) == encode(x)). And the Media list fast path agrees with the generic
// one: a payload that `MediaListResponse.plainPage(from:)` reads is a map the generic decoder reads
// as the same page.

@testable import AIBudsCBOR
@testable import AIBudsWire
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    if let page = MediaListResponse.plainPage(from: Data(input)) {
        let generic = try? CBORDecoder().decode(MediaListResponse.self, from: CBOR.decode(input))
        precondition(generic == page, "the plain list page differs from the generic decoding: \(String(describing: generic))")
    }
    guard let value = try? CBOR.decode(input) else { return 0 }
    let encoded = value.encoded()
    let again: CBOR
    do {
        again = try CBOR.decode(encoded)
    } catch {
        preconditionFailure("the encoding of an accepted item does not decode: \(error)")
    }
    precondition(again.encoded() == encoded, "deterministic encoding is not a fixed point")
    return 0
}
