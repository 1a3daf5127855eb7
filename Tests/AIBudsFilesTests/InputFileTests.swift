import AIBudsFiles
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reading a file a user or another program named: only regular files, never past the limit.
@Suite struct InputFileTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("input-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aRegularFileIsReadWhole() throws {
        let file = try folder().appendingPathComponent("a.json")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try bytes.write(to: file)
        #expect(try InputFile.read(file, limit: 200_000) == bytes)
        #expect(try InputFile.read(try folder().appendingPathComponent("empty").creatingEmpty(), limit: 10) == Data())
    }

    @Test func devicesFoldersAndFIFOsAreRefusedForWhatTheyAre() throws {
        for path in ["/dev/zero", "/dev/urandom", NSTemporaryDirectory()] {
            let error = #expect(throws: InputFileError.self) { try InputFile.read(URL(fileURLWithPath: path), limit: 1 << 20) }
            #expect(error?.kind == .notARegularFile, "\(path)")
        }
        // A FIFO nobody writes: refused at once, not waited on.
        let fifo = try folder().appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: InputFileError.self) { try InputFile.read(fifo, limit: 10) }
        // A symbolic link planted to /dev/zero is /dev/zero.
        let link = try folder().appendingPathComponent("announcement.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        let planted = #expect(throws: InputFileError.self) { try InputFile.read(link, limit: 64 << 10) }
        #expect(planted?.kind == .notARegularFile)
    }

    @Test func aFileOverTheLimitOrMissingIsATypedError() throws {
        let file = try folder().appendingPathComponent("big")
        try Data(count: 1001).write(to: file)
        let large = #expect(throws: InputFileError.self) { try InputFile.read(file, limit: 1000) }
        #expect(large?.kind == .tooLarge(limit: 1000))
        #expect(large?.description == "\(file.path): larger than the 1000 bytes allowed")
        let missing = #expect(throws: InputFileError.self) { try InputFile.read(file.appendingPathExtension("x"), limit: 1000) }
        #expect(missing?.kind == .unreadable(errno: ENOENT))
    }
}

private extension URL {
    func creatingEmpty() throws -> URL {
        try Data().write(to: self)
        return self
    }
}
