import AIBuds
import AIBudsImport
import AIBudsFoundation
import AIBudsWire
import Foundation

/// What `aibuds media import --json` prints: one document with every file, the bytes fetched over
/// the network per file (resumed bytes excluded), and the errors.
struct MediaImportReport: Encodable {
    /// One file of the selection.
    struct File: Encodable {
        /// The device file name.
        var name: String
        /// `imported`, `failed`, `skipped` (imported before, `--new`) or `notStarted`.
        var status: String
        /// The size the device listed.
        var size: UInt64
        /// Bytes fetched over the network in this run.
        var bytesFetched: UInt64
        /// The local file, when imported.
        var path: String?
        /// The SHA-256 (hex) of the local file, when imported.
        var sha256: String?
        /// Why it failed.
        var error: ErrorInfo?
        /// The stabilization of an imported video with six-axis data (absent for other files).
        var stabilization: Stabilization?

        /// A file that `--new` skipped.
        init(skipped file: MediaFileInfoModel, ledger entry: ImportLedgerEntry?) {
            name = file.fileName
            status = "skipped"
            size = file.fileSize ?? 0
            bytesFetched = 0
            path = entry?.localPath
            sha256 = entry?.sha256
        }

        init(name: String, status: String, size: UInt64, bytesFetched: UInt64, path: String?, sha256: String?, error: ErrorInfo?,
             stabilization: Stabilization? = nil) {
            self.stabilization = stabilization
            self.name = name
            self.status = status
            self.size = size
            self.bytesFetched = bytesFetched
            self.path = path
            self.sha256 = sha256
            self.error = error
        }
    }

    /// What became of a video's stabilized copy.
    struct Stabilization: Encodable {
        /// `stabilized`, `failed` (the original is kept), `disabled` (`--no-stabilize`),
        /// `pluginUnavailable` or `pending` (the import was cancelled before it).
        var status: String
        /// The stabilized copy (`NAME.stabilized.EXT`), when written.
        var path: String?
        /// Why it failed.
        var error: ErrorInfo?

        /// The outcome of `model`, nil for a file with nothing to stabilize.
        init?(_ model: ImportedMediaFileModel) {
            let status: String
            switch model.stabilizationStatus {
            case .skipped: return nil
            case .pending: status = "pending"
            case .stabilized: status = "stabilized"
            case .failed: status = "failed"
            case .pluginUnavailable: status = "pluginUnavailable"
            case .disabled: status = "disabled"
            }
            self.status = status
            path = model.stabilizedFileURL?.path
            error = model.error.map { ErrorInfo(AIBudsError.from($0)) }
        }
    }

    /// An SDK error.
    struct ErrorInfo: Encodable {
        /// The `SdkErrorCode` raw value.
        var code: Int
        /// The message.
        var message: String

        init(_ error: AIBudsError) {
            code = error.code.rawValue
            message = error.message
        }
    }

    var device: String
    var destination: String
    var success = false
    var seconds: Double = 0
    var bytesFetched: UInt64 = 0
    var files: [File] = []
    var error: ErrorInfo?

    /// Adds the outcome of every requested file.
    mutating func add(_ result: MediaImportResult, requested: [MediaFileInfoModel], ledger: ImportLedger) {
        // By exact name: NFC and NFD twins are two files with outcomes of their own.
        let imported = Dictionary(
            result.importedFiles.map { (MediaFileName($0.metadata.fileName), $0) }, uniquingKeysWith: { first, _ in first })
        let failed = Dictionary(
            result.failures.map { (MediaFileName($0.mediaFile.fileName), $0.error) }, uniquingKeysWith: { first, _ in first })
        for file in requested {
            let key = MediaFileName(file.fileName)
            let fetched = result.bytesFetched[key] ?? 0
            if let model = imported[key] {
                files.append(File(
                    name: file.fileName, status: "imported", size: file.fileSize ?? 0, bytesFetched: fetched,
                    path: model.localFileURL.path, sha256: ledger.entry(named: file.fileName)?.sha256, error: nil,
                    stabilization: Stabilization(model)))
            } else if let error = failed[key] {
                files.append(File(
                    name: file.fileName, status: "failed", size: file.fileSize ?? 0, bytesFetched: fetched,
                    path: nil, sha256: nil, error: ErrorInfo(error)))
            } else {
                files.append(File(
                    name: file.fileName, status: "notStarted", size: file.fileSize ?? 0, bytesFetched: fetched,
                    path: nil, sha256: nil, error: nil))
            }
        }
        bytesFetched = files.saturatingSum(\.bytesFetched)
    }

    /// Prints the document on standard output.
    func print() throws {
        try CLI.say(bytes: json())
    }

    /// The document as pretty JSON with sorted keys, laid out as `JSONEncoder` lays it out with
    /// `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`, written directly: a report lists
    /// thousands of files, which `JSONEncoder` takes about 10 ms to encode.
    func json() -> [UInt8] {
        var out = ReportJSONWriter()
        out.open("{")
        out.key("bytesFetched", first: true)
        out.number(bytesFetched)
        out.key("destination")
        out.string(destination)
        out.key("device")
        out.string(device)
        if let error {
            out.key("error")
            out.error(error)
        }
        out.key("files")
        if files.isEmpty {
            out.raw("[\n\n  ]")
        } else {
            out.open("[")
            for (index, file) in files.enumerated() {
                if index > 0 { out.raw(",") }
                out.newline()
                out.file(file)
            }
            out.close("]")
        }
        out.key("seconds")
        out.raw(ReportJSONWriter.number(seconds))
        out.key("success")
        out.raw(success ? "true" : "false")
        out.close("}")
        return out.bytes
    }
}

/// Writes pretty-printed JSON (two spaces per level, `"key" : value`) into bytes.
private struct ReportJSONWriter {
    var bytes: [UInt8] = []
    private var depth = 0

    init() { bytes.reserveCapacity(1 << 16) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A whole number, its digits written straight into the bytes.
    mutating func number(_ value: UInt64) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// A number as `JSONEncoder` writes a `Double`: whole values without a fraction.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    mutating func open(_ bracket: StaticString) {
        raw(bracket)
        depth += 1
    }

    mutating func close(_ bracket: StaticString) {
        depth -= 1
        newline()
        raw(bracket)
    }

    /// A key (plain ASCII, written as it is) and the separator before its value.
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline()
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\" : ")
    }

    /// A JSON string, escaped as `JSONEncoder` escapes it.
    mutating func string(_ text: String) { JSONString.append(text, to: &bytes) }

    mutating func error(_ error: MediaImportReport.ErrorInfo) {
        open("{")
        key("code", first: true)
        raw("\(error.code)")
        key("message")
        string(error.message)
        close("}")
    }

    mutating func file(_ file: MediaImportReport.File) {
        open("{")
        key("bytesFetched", first: true)
        number(file.bytesFetched)
        if let error = file.error {
            key("error")
            self.error(error)
        }
        key("name")
        string(file.name)
        if let path = file.path {
            key("path")
            string(path)
        }
        if let sha256 = file.sha256 {
            key("sha256")
            string(sha256)
        }
        key("size")
        number(file.size)
        if let stabilization = file.stabilization {
            key("stabilization")
            open("{")
            var first = true
            if let error = stabilization.error {
                key("error", first: true)
                self.error(error)
                first = false
            }
            if let path = stabilization.path {
                key("path", first: first)
                string(path)
                first = false
            }
            key("status", first: first)
            string(stabilization.status)
            close("}")
        }
        key("status")
        string(file.status)
        close("}")
    }
}
