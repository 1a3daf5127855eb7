// libFuzzer target `ledger`: the import ledger's JSON Lines reader (`ImportLedger`, the file
// `.aibuds/ledger-<device>.jsonl` in an import folder, which anything with write access to that
// folder may have written), reading a file holding the input.
//
// Built by scripts/fuzz.sh with the AIBudsSync, AIBudsWire and AIBudsFoundation modules and
// Sources/AIBuds/Import/ImportLedger.swift. Invariants: no crash, hang or huge allocation; every
// entry loaded is this device's and found again by its exact name; recorded into a fresh ledger
// (the writer's own JSON lines), the entries load again unchanged (round trip).

import AIBudsFoundation
import AIBudsWire
import Foundation

private let deviceID = "fuzz-device"
private let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-ledger-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url.appendingPathComponent("a"), withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(at: url.appendingPathComponent("b"), withIntermediateDirectories: true)
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLedger(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // An empty file is skipped: Foundation's `Data(contentsOf:)` leaks its 4 KiB read buffer on
    // a file of 0 bytes (swift-foundation's readBytesFromFile; LeakSanitizer reports it), which is
    // not the ledger's doing. A ledger that exists is never empty once written.
    guard count > 0 else { return 0 }
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    let first = folder.appendingPathComponent("a")
    let second = folder.appendingPathComponent("b")
    let file = first.appendingPathComponent(ImportLedger.fileName(for: deviceID))
    guard (try? input.write(to: file)) != nil else { return 0 }
    let ledger: ImportLedger
    do {
        ledger = try ImportLedger(deviceID: deviceID, directory: first)
    } catch {
        preconditionFailure("a readable ledger file is refused: \(error)")
    }
    let entries = ledger.entries
    var names = Set<MediaFileName>()
    for entry in entries {
        precondition(entry.deviceID == deviceID, "another device's entry was loaded")
        precondition(names.insert(MediaFileName(entry.name)).inserted, "two entries for one exact name")
        precondition(ledger.entry(named: entry.name) == entry, "an entry is not found by its exact name")
    }
    // Round trip through the writer.
    let copy = second.appendingPathComponent(ImportLedger.fileName(for: deviceID))
    try? FileManager.default.removeItem(at: copy)
    do {
        let fresh = try ImportLedger(deviceID: deviceID, directory: second)
        try fresh.record(contentsOf: entries)
    } catch {
        preconditionFailure("loaded entries cannot be recorded: \(error)")
    }
    let reloaded: ImportLedger
    do {
        reloaded = try ImportLedger(deviceID: deviceID, directory: second)
    } catch {
        preconditionFailure("a ledger the writer wrote is refused: \(error)")
    }
    let again = reloaded.entries
    precondition(again.count == entries.count, "entries lost through the writer: \(entries.count) → \(again.count)")
    for (a, b) in zip(entries, again) {
        precondition(a == b && Array(a.name.utf8) == Array(b.name.utf8), "an entry changes through the writer: \(a) vs \(b)")
    }
    return 0
}
