import AIBuds
import AIBudsFoundation
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

        /// A file that `--new` skipped.
        init(skipped file: MediaFileInfoModel, ledger entry: ImportLedgerEntry?) {
            name = file.fileName
            status = "skipped"
            size = file.fileSize ?? 0
            bytesFetched = 0
            path = entry?.localPath
            sha256 = entry?.sha256
        }

        init(name: String, status: String, size: UInt64, bytesFetched: UInt64, path: String?, sha256: String?, error: ErrorInfo?) {
            self.name = name
            self.status = status
            self.size = size
            self.bytesFetched = bytesFetched
            self.path = path
            self.sha256 = sha256
            self.error = error
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
        let imported = Dictionary(result.importedFiles.map { ($0.metadata.fileName, $0) }, uniquingKeysWith: { first, _ in first })
        let failed = Dictionary(result.failures.map { ($0.mediaFile.fileName, $0.error) }, uniquingKeysWith: { first, _ in first })
        for file in requested {
            let fetched = result.bytesFetched[file.fileName] ?? 0
            if let model = imported[file.fileName] {
                files.append(File(
                    name: file.fileName, status: "imported", size: file.fileSize ?? 0, bytesFetched: fetched,
                    path: model.localFileURL.path, sha256: ledger.entry(named: file.fileName)?.sha256, error: nil))
            } else if let error = failed[file.fileName] {
                files.append(File(
                    name: file.fileName, status: "failed", size: file.fileSize ?? 0, bytesFetched: fetched,
                    path: nil, sha256: nil, error: ErrorInfo(error)))
            } else {
                files.append(File(
                    name: file.fileName, status: "notStarted", size: file.fileSize ?? 0, bytesFetched: fetched,
                    path: nil, sha256: nil, error: nil))
            }
        }
        bytesFetched = files.reduce(0) { $0 + $1.bytesFetched }
    }

    /// Prints the document on standard output.
    func print() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        CLI.say(String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}
