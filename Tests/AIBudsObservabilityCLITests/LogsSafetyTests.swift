import AIBudsLog
import AIBudsLogStore
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `aibuds logs` writes only where it is asked, only over a regular file, and reads only log stores.
@Suite(.timeLimit(.minutes(3))) struct LogsSafetyTests {
    private func makeStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("logs.sqlite").path
        let store = try SQLiteLogStore(path: path)
        store.write(LogRecord(date: Date(), level: .info, category: "smp", message: "connected", device: "glasses-1"))
        store.close()
        return path
    }

    @Test func anExportRefusesLinksDevicesAndTheStoreItself() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try makeStore(in: directory)
        var before = stat()
        #expect(lstat(store, &before) == 0)
        // A symbolic link to the user's file: refused, the file untouched.
        let precious = directory.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: precious)
        let link = directory.appendingPathComponent("link.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: precious)
        let viaLink = try await runProgram(try aibuds(), ["logs", "--store", store, "--export", link.path])
        #expect(viaLink.status == 1 && viaLink.err.contains("symbolic link"), "\(viaLink.err)")
        #expect(try String(contentsOf: precious, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == precious.path)
        // A device: refused, and it stays a device.
        let device = try await runProgram(try aibuds(), ["logs", "--store", store, "--export", "/dev/null"])
        #expect(device.status == 1 && device.err.contains("not a regular file"), "\(device.err)")
        var status = stat()
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        // The store itself, by its own path and by a hard link: refused, the store intact.
        for target in [store, directory.appendingPathComponent("alias.jsonl").path] {
            if target != store { #expect(Glibc.link(store, target) == 0) }
            let over = try await runProgram(try aibuds(), ["logs", "--store", store, "--export", target])
            #expect(over.status == 1 && over.err.contains("which this command reads"), "\(over.err)")
        }
        // Still the database (SQLite may have checkpointed its WAL into it; it was never replaced).
        var after = stat()
        #expect(lstat(store, &after) == 0 && after.st_ino == before.st_ino, "the store's file is the same file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)).starts(with: Data("SQLite format 3\0".utf8)))
        let still = try await runProgram(try aibuds(), ["logs", "--store", store])
        #expect(still.status == 0 && still.out.contains("connected"))
        // A regular file is replaced, private to the user.
        let out = directory.appendingPathComponent("out.jsonl")
        try Data("old".utf8).write(to: out)
        let ok = try await runProgram(try aibuds(), ["logs", "--store", store, "--export", out.path])
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(ok.status == 0 && written.contains("\"connected\""))
        #expect(lstat(out.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    @Test func storePathsAreRelativeToTheCurrentFolderAndForeignDatabasesAreRefused() async throws {
        let directory = try makeTemporaryDirectory()
        _ = try makeStore(in: directory)
        // A relative --store, run from the store's folder.
        let relative = try await runProgram(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "cd '\(directory.path)' && exec '\(try aibuds().path)' logs --store logs.sqlite"])
        #expect(relative.status == 0 && relative.out.contains("connected"), "\(relative.err)")
        // Another application's database: refused, and no log table is added to it.
        let other = directory.appendingPathComponent("other-app.sqlite").path
        let made = try await runProgram(URL(fileURLWithPath: "/usr/bin/sqlite3"), [other, "CREATE TABLE users(id INTEGER, name TEXT)"])
        #expect(made.status == 0)
        let foreign = try await runProgram(try aibuds(), ["logs", "--store", other])
        #expect(foreign.status == 1 && foreign.err.contains("not a log store"), "\(foreign.err)")
        let tables = try await runProgram(URL(fileURLWithPath: "/usr/bin/sqlite3"), [other, ".tables"])
        #expect(tables.out.trimmingCharacters(in: .whitespacesAndNewlines) == "users")
    }
}
