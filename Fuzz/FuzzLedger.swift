// libFuzzer target `ledger`: the import ledger's JSON Lines reader (`ImportLedger`, the file
// `.aibuds/ledger-<device>.jsonl` in an import folder, which anything with write access to that
// folder may have written), on the file's bytes (`ImportLedger.entries(fromLines:deviceID:)`, what
// `ImportLedger.init` reads the file with).
//
// Built by scripts/fuzz.sh with the AIBudsSync, AIBudsWire and AIBudsFoundation modules and
// Sources/AIBuds/Import/ImportLedger.swift. Invariants: no crash, hang or huge allocation; every
// entry loaded is this device's, keyed by its exact name; written back as the writer's own JSON
// lines (`jsonLine`), the entries read again unchanged (round trip), and writing that is a fixed
// point.

@testable import AIBudsWire
import Foundation

private let deviceID = "fuzz-device"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLedger(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    let entries = ImportLedger.entries(fromLines: input, deviceID: deviceID)
    var lines: [UInt8] = []
    for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
        precondition(entry.deviceID == deviceID, "another device's entry was loaded")
        precondition(MediaFileName(entry.name) == name, "an entry is keyed by another name")
        lines += entry.jsonLine
    }
    let again = ImportLedger.entries(fromLines: Data(lines), deviceID: deviceID)
    precondition(again.count == entries.count, "entries lost through the writer: \(entries.count) → \(again.count)")
    var rewritten: [UInt8] = []
    for (name, entry) in again.sorted(by: { $0.key < $1.key }) {
        guard let before = entries[name] else { preconditionFailure("the writer renamed an entry: \(entry.name.debugDescription)") }
        precondition(before == entry && Array(before.name.utf8) == Array(entry.name.utf8),
                     "an entry changes through the writer: \(before) vs \(entry)")
        rewritten += entry.jsonLine
    }
    precondition(rewritten == lines, "writing the entries is not a fixed point")
    return 0
}
