import AIBuds
import AIBudsImport
import AIBudsFoundation
import AIBudsWire
import Foundation

/// What `aibuds media import --device A --device B … --json` and `aibuds station --json` print:
/// one document with each device's report (as a one-device import prints it) and the station's totals.
struct FleetImportReport: Encodable {
    var success = true
    var seconds: Double = 0
    var bytesFetched: UInt64 = 0
    var devices: [MediaImportReport] = []

    /// Adds the report of one device.
    mutating func add(_ device: FleetDeviceResult, name: String) {
        var report = MediaImportReport(device: name, destination: device.location)
        if let ledger = device.ledger {
            for skipped in device.skipped { report.files.append(.init(skipped: skipped, ledger: ledger.entry(named: skipped.fileName))) }
            if let result = device.result {
                report.add(result, requested: device.requested, ledger: ledger)
                // Files stored in an object store: the path is the object's URL.
                let objects = Dictionary(
                    result.importedFiles.compactMap { model in model.objectURL.map { (MediaFileName(model.metadata.fileName), $0) } },
                    uniquingKeysWith: { first, _ in first })
                for index in report.files.indices {
                    if let url = objects[MediaFileName(report.files[index].name)] { report.files[index].path = url.absoluteString }
                }
            }
        }
        report.success = device.success
        report.error = (device.error ?? device.result?.error ?? device.result?.ledgerError).map { .init($0) }
        report.bytesFetched = report.files.saturatingSum(\.bytesFetched)
        success = success && device.success
        bytesFetched = [bytesFetched, report.bytesFetched].saturatingSum { $0 }
        devices.append(report)
    }

    /// Prints the document on standard output.
    func print() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try CLI.say(bytes: Array(encoder.encode(self)))
    }
}
