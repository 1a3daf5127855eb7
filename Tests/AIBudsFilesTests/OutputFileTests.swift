import AIBudsFiles
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `OutputFile` replaces regular files only, atomically, and leaves nothing behind when it fails.
struct OutputFileTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func entries(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    @Test func createsAndReplacesRegularFilesWithTheirPermissions() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.txt")
        try OutputFile.replace(file, with: Data("one".utf8), permissions: 0o600)
        try OutputFile.replace(file, with: Data("two".utf8), permissions: 0o640)
        #expect(try String(contentsOf: file, encoding: .utf8) == "two")
        var status = stat()
        #expect(lstat(file.path, &status) == 0 && status.st_mode & 0o777 == 0o640)
        #expect(try entries(dir) == ["a.txt"], "no temporary file is left")
    }

    @Test func refusesLinksDevicesFoldersAndProtectedFiles() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target")
        try Data("keep".utf8).write(to: target)
        let link = dir.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let hard = dir.appendingPathComponent("hard")
        #expect(Glibc.link(target.path, hard.path) == 0)
        for (url, reason) in [(link, "symbolic link"), (URL(fileURLWithPath: "/dev/full"), "not a regular file"), (sub, "folder")] {
            let error = #expect(throws: OutputFileError.self) { try OutputFile.replace(url, with: Data("x".utf8)) }
            #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
        }
        #expect(throws: OutputFileError.self) { try OutputFile.replace(hard, with: Data("x".utf8), protecting: [target]) }
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try entries(dir) == ["hard", "link", "sub", "target"])
    }

    @Test func aFailingFillLeavesTheOldFileAndNoTemporary() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.txt")
        try Data("old".utf8).write(to: file)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try OutputFile.replace(file) { temporary in
                try Data("half".utf8).write(to: temporary)
                throw Boom()
            }
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "old")
        #expect(try entries(dir) == ["a.txt"])
    }

    @Test func makeFolderCreatesParentsAndRefusesAFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deep = dir.appendingPathComponent("a/b/c")
        try OutputFile.makeFolder(deep, permissions: 0o700)
        var status = stat()
        #expect(stat(deep.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        let file = dir.appendingPathComponent("f")
        try Data().write(to: file)
        #expect(throws: OutputFileError.self) { try OutputFile.makeFolder(file) }
    }
}
