import AIBuds
import AIBudsDigest
import AIBudsFoundation
import AIBudsProcess
@testable import AIBudsS3
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `aibuds media import --to s3://…` against a real S3-compatible server (SeaweedFS) on loopback,
/// every object checked with an independent client (awscli).
@Suite("Fleet import: the S3 destination", .serialized, .timeLimit(.minutes(4)))
struct S3ImportTests {
    private func environment(_ fixture: ImportEmulatorFixture, _ server: S3ServerFixture, _ extra: [String: String] = [:]) -> [String: String] {
        server.environment(extra: [
            "XDG_RUNTIME_DIR": fixture.folder.path, "XDG_DATA_HOME": fixture.folder.path,
            "XDG_CACHE_HOME": fixture.folder.appendingPathComponent("cache").path,
        ].merging(extra) { $1 })
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Byte-identical objects with the device's SHA-256 as metadata, keys safe for hostile names,
    /// the ledger beside the objects, `--new` and a plain second run storing nothing again.
    @Test func importsVerifiedObjectsOnceWithMetadataAndTheLedgerBeside() async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let hostile = "../../evil\u{1B}]0;x\u{07}.jpg"
        let fixture = try ImportEmulatorFixture([
            .video("VID_1.mp4", 40_000_000, sixaxis: false), .photo("IMG_1.jpg", 300_000), .photo(hostile, 20_000),
        ])
        defer { fixture.stop() }
        let arguments = ["media", "import", "--device", fixture.address, "--to", "s3://station/site-a", "--all", "--json"]
        let (status, out, err) = try await runAIBuds(arguments, environment: environment(fixture, server))
        #expect(status == 0, "\(err)")
        let report = try json(out)
        let device = try #require((report["devices"] as? [[String: Any]])?.first)
        let id = try #require(device["device"] as? String)
        let files = try #require(device["files"] as? [[String: Any]])
        #expect(files.allSatisfy { $0["status"] as? String == "imported" && ($0["path"] as? String)?.hasPrefix("s3://station/site-a/\(id)/") == true })

        let keys = try await server.keys()
        let objects = keys.filter { !$0.contains("/.aibuds/") }
        #expect(Set(objects) == ["site-a/\(id)/VID_1.mp4", "site-a/\(id)/IMG_1.jpg", "site-a/\(id)/_._.._evil_]0;x_.jpg"], "\(keys)")
        #expect(keys.filter { $0.contains("/.aibuds/ledger/") }.count == 3, "\(keys)")
        #expect(!keys.contains { $0.contains("/.aibuds/uploads/") })
        #expect(try await server.uploadsInProgress() == 0)
        for (name, key) in [("VID_1.mp4", "VID_1.mp4"), ("IMG_1.jpg", "IMG_1.jpg"), (hostile, "_._.._evil_]0;x_.jpg")] {
            let (data, metadata) = try await server.object("site-a/\(id)/\(key)")
            let expected = try fixture.sha256(of: name)
            #expect(data == (try LoopbackContent.of(fixture, name)), "\(key) differs")
            #expect(metadata["sha256"] == expected.hexString)
        }
        // The staged copies are gone once stored.
        let staged = fixture.folder.appendingPathComponent("cache/aibuds/s3-staging/station/\(id)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staged.path)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty)

        // --new: the ledger in the bucket knows every file.
        let (again, second, _) = try await runAIBuds(arguments + ["--new"], environment: environment(fixture, server))
        #expect(again == 0)
        #expect(second.contains("\"skipped\"") && !second.contains("\"imported\""))
        // A plain second run finds every object with the device's SHA-256 and stores nothing new.
        let before = try await server.aws(["s3api", "head-object", "--bucket", "station", "--key", "site-a/\(id)/VID_1.mp4"])
        let (third, _, thirdErr) = try await runAIBuds(arguments, environment: environment(fixture, server))
        #expect(third == 0, "\(thirdErr)")
        #expect(Set(try await server.keys()) == Set(keys))
        let after = try await server.aws(["s3api", "head-object", "--bucket", "station", "--key", "site-a/\(id)/VID_1.mp4"])
        #expect(before.out == after.out, "the object was written again")
    }

    /// Two stations storing the same device file at once: one object, one ledger entry, no upload left over.
    @Test func twoStationsRacingStoreAFileOnce() async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let file = server.folder.appendingPathComponent("race.bin")
        var bytes = [UInt8](repeating: 0, count: 24 << 20)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        try Data(bytes).write(to: file)
        let digest = SHA256.hash(bytes)
        let stations = (0..<2).map { _ in
            S3MediaStore(client: server.client(), location: S3Location("s3://station/race")!, partSize: 5 << 20)
        }
        let urls = try await withThrowingTaskGroup(of: URL.self) { group in
            for station in stations {
                group.addTask {
                    try await onOwnThread { try station.store(file: file, deviceID: "GLASSES-1", name: "race.bin", sha256: digest, companionName: nil) }
                }
            }
            var urls: [URL] = []
            for try await url in group { urls.append(url) }
            return urls
        }
        #expect(urls.count == 2 && urls[0] == urls[1], "\(urls)")
        let keys = try await server.keys(prefix: "race/")
        #expect(keys.filter { !$0.contains("/.aibuds/") } == ["race/GLASSES-1/race.bin"], "\(keys)")
        #expect(keys.filter { $0.contains("/.aibuds/ledger/") }.count == 1)
        #expect(try await server.uploadsInProgress() == 0)
        let (data, metadata) = try await server.object("race/GLASSES-1/race.bin")
        #expect(data == Data(bytes) && metadata["sha256"] == digest.hexString)
        // The final writes are conditional: the store refuses a second object at a taken key.
        let second = #expect(throws: S3Error.self) {
            try server.client().expectSuccess(
                "PUT", bucket: "station", key: "race/GLASSES-1/race.bin", headers: ["If-None-Match": "*"], body: Data("x".utf8))
        }
        #expect(second?.kind == .preconditionFailed)
        // Bytes that are not the device's are refused, and nothing is stored.
        let wrong = [UInt8](repeating: 7, count: 32)
        #expect(throws: S3Error.self) {
            try stations[0].store(file: file, deviceID: "GLASSES-2", name: "race.bin", sha256: wrong, companionName: nil)
        }
        #expect(try await server.keys(prefix: "race/GLASSES-2/").filter { !$0.contains("/.aibuds/") }.isEmpty)
        #expect(try await server.uploadsInProgress() == 0)
    }

    /// Two stations importing the same device into the same place at once, each streaming files
    /// from the device (their conditional writes decide which one's object stays): every object
    /// is stored once, byte-identical, one ledger entry per file, both imports succeed and no
    /// upload is left in progress.
    @Test func twoStationsStreamingOneDeviceAtOnceStoreEachFileOnce() async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let fixture = try ImportEmulatorFixture([.video("VID_R.mp4", 30_000_000, sixaxis: false), .photo("IMG_R.jpg", 400_000)])
        defer { fixture.stop() }
        let arguments = ["media", "import", "--device", fixture.address, "--to", "s3://station/both", "--all", "--json"]
        async let first = runAIBuds(arguments, environment: environment(fixture, server, ["XDG_CACHE_HOME": fixture.folder.appendingPathComponent("cache-1").path]))
        async let second = runAIBuds(arguments, environment: environment(fixture, server, ["XDG_CACHE_HOME": fixture.folder.appendingPathComponent("cache-2").path]))
        let results = try await [first, second]
        var fetched: [Int] = []
        for (status, out, err) in results {
            #expect(status == 0, "\(err)\n\(out)")
            let files = ((try? json(out))?["devices"] as? [[String: Any]])?.first?["files"] as? [[String: Any]] ?? []
            fetched.append(files.compactMap { $0["bytesFetched"] as? Int }.reduce(0, +))
        }
        // Each file came from the device at least once (usually both stations stream the video and
        // the slower one's conditional Complete finds the other's object with the same SHA-256).
        #expect(fetched.reduce(0, +) >= 30_400_000, "\(fetched)")
        let id = try #require(((try json(results[0].1))["devices"] as? [[String: Any]])?.first?["device"] as? String)
        let keys = try await server.keys(prefix: "both/")
        #expect(Set(keys.filter { !$0.contains("/.aibuds/") }) == ["both/\(id)/VID_R.mp4", "both/\(id)/IMG_R.jpg"], "\(keys)")
        #expect(keys.filter { $0.contains("/.aibuds/ledger/") }.count == 2, "\(keys)")
        #expect(try await server.uploadsInProgress() == 0)
        for name in ["VID_R.mp4", "IMG_R.jpg"] {
            let (data, metadata) = try await server.object("both/\(id)/\(name)")
            #expect(data == (try LoopbackContent.of(fixture, name)), "\(name) differs")
            #expect(metadata["sha256"] == (try fixture.sha256(of: name)).hexString)
        }
    }

    /// A video recorded with six-axis data is imported into staging, stabilized, and both the
    /// original and its stabilized copy are stored (the copy beside the original), verified
    /// with awscli; nothing stays in staging.
    @Test func stabilizedVideosAreStoredBesideTheirOriginals() async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let folder = try makeTemporaryDirectory("s3-stabilized")
        defer { try? FileManager.default.removeItem(at: folder) }
        let emulator = try await EmulatorProcess.start(
            profile: "glasses", name: "Stabilizing Glasses", runtime: folder, arguments: ["--rendered-videos", "1"])
        defer { emulator.terminate() }
        let environment = server.environment(extra: [
            "XDG_RUNTIME_DIR": folder.path, "XDG_DATA_HOME": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
        ])
        let (status, out, err) = try await runAIBuds(
            ["media", "import", "--device", emulator.address, "--to", "s3://station/stab", "--all", "--json"], environment: environment)
        #expect(status == 0, "\(err)")
        let device = try #require(((try json(out))["devices"] as? [[String: Any]])?.first)
        let id = try #require(device["device"] as? String)
        let files = try #require(device["files"] as? [[String: Any]])
        let video = try #require(files.first { ($0["name"] as? String)?.hasSuffix(".mp4") == true })
        let name = try #require(video["name"] as? String)
        let stem = (name as NSString).deletingPathExtension
        let stabilization = try #require(video["stabilization"] as? [String: Any], "\(video)")
        #expect(stabilization["status"] as? String == "stabilized", "\(stabilization)")
        let keys = try await server.keys(prefix: "stab/")
        #expect(keys.contains("stab/\(id)/\(name)") && keys.contains("stab/\(id)/\(stem).stabilized.mp4"), "\(keys)")
        // The stabilized copy is a playable video of its own, with the original's SHA-256 beside it.
        let (copy, copyMetadata) = try await server.object("stab/\(id)/\(stem).stabilized.mp4")
        let (original, metadata) = try await server.object("stab/\(id)/\(name)")
        #expect(copy.count > 10_000 && copy != original)
        #expect(copyMetadata["sha256"] == SHA256.hash(copy).hexString)
        #expect(metadata["sha256"] == SHA256.hash(original).hexString)
        #expect(video["sha256"] as? String == SHA256.hash(original).hexString)
        let staged = folder.appendingPathComponent("cache/aibuds/s3-staging/station/\(id)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staged.path)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    /// A 150 MB video on the `wifi` link (25 MB/s: the upload lasts 6 s, well past the first
    /// save of its state at 2 s) imported into `s3://station/PREFIX` by a child process that
    /// `stop` ends mid-upload; then the same import again, which must resume that upload: it
    /// completes (none is left in progress), the device is asked only for the bytes after the
    /// stored parts, and the object holds the device's bytes and SHA-256. `resumed` checks more.
    private func stopAndResume(
        _ prefix: String, stop: (ChildProcess, S3ServerFixture) async throws -> Void,
        resumed: (S3ServerFixture) async throws -> Void = { _ in }
    ) async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let size: UInt64 = 150_000_000
        let fixture = try ImportEmulatorFixture([.video("LONG.mp4", size, sixaxis: false)], configure: { $0.link = .wifi })
        defer { fixture.stop() }
        let arguments = ["media", "import", "--device", fixture.address, "--to", "s3://station/\(prefix)", "--all", "--json"]
        let process = try ChildProcess(
            try aibudsExecutable().path, arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment(fixture, server)) { $1 },
            output: .discard, errors: .discard)
        defer { process.kill() }
        try await stop(process, server)
        #expect(try await server.uploadsInProgress() == 1)
        let partial = try await server.keys(prefix: prefix + "/")
        #expect(!partial.contains { $0.hasSuffix("/LONG.mp4") }, "the object was complete before the stop: \(partial)")

        let (status, out, err) = try await runAIBuds(arguments, environment: environment(fixture, server))
        #expect(status == 0, "\(err)")
        let device = try #require(((try json(out))["devices"] as? [[String: Any]])?.first)
        let id = try #require(device["device"] as? String)
        #expect(try await server.uploadsInProgress() == 0, "the stopped upload was not resumed")
        let fetched = try #require((device["files"] as? [[String: Any]])?.first?["bytesFetched"] as? Int)
        #expect(fetched > 0 && fetched < Int(size), "fetched \(fetched) of \(size) bytes again")
        let (data, metadata) = try await server.object("\(prefix)/\(id)/LONG.mp4")
        #expect(data.count == Int(size))
        #expect(SHA256.hash(data) == (try fixture.sha256(of: "LONG.mp4")))
        #expect(metadata["sha256"] == (try fixture.sha256(of: "LONG.mp4")).hexString)
        try await resumed(server)
    }

    /// The upload states the store holds under `prefix`.
    private func uploadStates(_ server: S3ServerFixture, _ prefix: String) async throws -> [String] {
        try await server.keys(prefix: prefix + "/").filter { $0.contains("/.aibuds/uploads/") }
    }

    /// An importer killed once its upload's state says a part is stored: the next run resumes.
    @Test func resumesTheMultipartUploadAfterAKill() async throws {
        try await stopAndResume("kill") { process, server in
            let client = server.client()
            try await eventually("a part of the upload to be stored", timeout: .seconds(150)) {
                guard let state = try await uploadStates(server, "kill").first else { return false }
                let saved = try client.send("GET", bucket: "station", key: state)
                // The state says a part is stored (it is written once the part is).
                guard let id = XMLValues.json(saved.body)?["uploadID"] as? String, let key = XMLValues.json(saved.body)?["key"] as? String,
                    (XMLValues.json(saved.body)?["parts"] as? [Any])?.isEmpty == false
                else { return false }
                let parts = try client.send("GET", bucket: "station", key: key, query: "uploadId=" + S3Client.encodeQueryValue(id))
                return !XMLValues.all("PartNumber", in: parts.body).isEmpty
            }
            process.kill()
            _ = await process.ended()
        }
    }

    /// An import stopped with Ctrl-C as soon as the store holds a part, before the upload's first
    /// periodic state save (2 s in) on a quick machine: it saves the state as it stops, with
    /// every stored part, and the next run resumes from there.
    @Test func anInterruptedImportKeepsItsStoredParts() async throws {
        try await stopAndResume("stop") { process, server in
            let client = server.client()
            let started = ContinuousClock.now
            try await eventually("a part of the upload to be stored", timeout: .seconds(150)) {
                let uploads = try client.send("GET", bucket: "station", key: "", query: "prefix=stop%2F&uploads=")
                guard let id = XMLValues.all("UploadId", in: uploads.body).first, let key = XMLValues.all("Key", in: uploads.body).first
                else { return false }
                let parts = try client.send("GET", bucket: "station", key: key, query: "uploadId=" + S3Client.encodeQueryValue(id))
                return !XMLValues.all("PartNumber", in: parts.body).isEmpty
            }
            let savedBefore = try await uploadStates(server, "stop")
            process.interrupt()
            let stopped = await process.ended()
            #expect(stopped.exited && stopped.status == 130, "\(stopped)")
            // Checked only when the stop came before the periodic save; a slow machine may be late.
            if ContinuousClock.now - started < .seconds(2) { #expect(savedBefore.isEmpty) }
            #expect(try await uploadStates(server, "stop").count == 1, "the stop saved no state")
        } resumed: { server async throws in
            #expect(try await uploadStates(server, "stop").isEmpty, "the state outlived the upload")
        }
    }

    /// A file of one part goes in one `PUT` and never has an upload state: asking where it
    /// resumes sends no request (a photo costs the store one round trip less), while a file of
    /// several parts looks for its state once.
    @Test func onlyAFileOfSeveralPartsLooksForAnUploadState() async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let client = server.client()
        let store = S3MediaStore(client: client, location: try #require(S3Location("s3://\(server.bucket)/up")))
        let sha256 = [UInt8](repeating: 1, count: 32)
        let before = client.requestsSent.withLock { $0 }
        let photo = store.upload(key: "up/d/IMG_1.jpg", deviceID: "d", sha256: sha256, size: 3_000_000, ledgerName: nil)
        #expect(try photo.resumePoint() == nil)
        #expect(client.requestsSent.withLock { $0 } == before, "a one-part file asked for an upload state")
        let video = store.upload(key: "up/d/VID_1.mp4", deviceID: "d", sha256: sha256, size: 30_000_000, ledgerName: nil)
        #expect(try video.resumePoint() == nil)
        #expect(client.requestsSent.withLock { $0 } == before + 1)
    }

    /// Files stream from the device into their objects with no local copy: run with a limit on
    /// the size of any file the process writes (`ulimit -f`, 2 MiB), the import of a 40 MB video
    /// into S3 succeeds, byte-identical, while the same import into a local folder fails.
    @Test func streamsIntoTheStoreWithoutALocalCopy() async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let fixture = try ImportEmulatorFixture([.video("BIG.mp4", 40_000_000, sixaxis: false), .photo("IMG_2.jpg", 500_000)])
        defer { fixture.stop() }
        let limited = { (destination: String) in
            try await runProgram(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "ulimit -f 2048 && exec \"$0\" \"$@\"", try aibudsExecutable().path,
                 "media", "import", "--device", fixture.address, "--to", destination, "--all", "--json"],
                environment: environment(fixture, server))
        }
        let streamed = try await limited("s3://station/streamed")
        #expect(streamed.status == 0, "\(streamed.err)")
        let id = try #require(((try json(streamed.out))["devices"] as? [[String: Any]])?.first?["device"] as? String)
        for name in ["BIG.mp4", "IMG_2.jpg"] {
            let (data, metadata) = try await server.object("streamed/\(id)/\(name)")
            #expect(data == (try LoopbackContent.of(fixture, name)), "\(name) differs")
            #expect(metadata["sha256"] == (try fixture.sha256(of: name)).hexString)
        }
        // Each 8 MiB part carried its CRC-32, which the store checked and keeps: the object's
        // checksum is the CRC-32 of the parts' CRC-32s. The small file went in one PUT whose
        // checksum is the device's SHA-256.
        let video = try LoopbackContent.of(fixture, "BIG.mp4")
        var partChecksums = Data()
        for start in stride(from: 0, to: video.count, by: 8 << 20) {
            let crc = CRC32.checksum(video[start..<min(video.count, start + (8 << 20))]).bigEndian
            withUnsafeBytes(of: crc) { partChecksums.append(contentsOf: $0) }
        }
        let expected = withUnsafeBytes(of: CRC32.checksum(partChecksums).bigEndian) { Data($0) }.base64EncodedString()
        #expect(try await server.checksums("streamed/\(id)/BIG.mp4")["ChecksumCRC32"] == "\(expected)-5")
        #expect(try await server.checksums("streamed/\(id)/IMG_2.jpg")["ChecksumSHA256"]
            == Data(try fixture.sha256(of: "IMG_2.jpg")).base64EncodedString())
        #expect(try await server.uploadsInProgress() == 0)
        // The limit bites a local import (the check above could not pass by accident).
        let local = try await limited(fixture.folder.appendingPathComponent("local").path)
        #expect(!(local.exited && local.status == 0), "a local import wrote a 40 MB file under a 2 MiB limit")
    }

    /// Wrong credentials: a clear error before the device is touched, nothing written. A bucket
    /// that refuses writes (a read-only identity): every file fails with the store's refusal,
    /// nothing is written, no upload is left.
    @Test func wrongCredentialsAndARefusingBucketWriteNothing() async throws {
        let server = try await S3ServerFixture()
        defer { server.stop() }
        let fixture = try ImportEmulatorFixture([.video("VID_1.mp4", 12_000_000, sixaxis: false), .photo("IMG_1.jpg", 30_000)])
        defer { fixture.stop() }
        let arguments = ["media", "import", "--device", fixture.address, "--to", "s3://station/x", "--all", "--json"]
        let (wrong, _, wrongErr) = try await runAIBuds(
            arguments, environment: environment(fixture, server, ["AWS_SECRET_ACCESS_KEY": "not-the-secret"]))
        #expect(wrong == 1)
        #expect(wrongErr.contains("s3://station") && wrongErr.contains("credentials"), "\(wrongErr)")
        let (missing, _, missingErr) = try await runAIBuds(
            arguments, environment: environment(fixture, server, ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""]))
        #expect(missing == 1 && missingErr.contains("AWS_ACCESS_KEY_ID"), "\(missingErr)")

        let (refused, out, _) = try await runAIBuds(
            arguments, environment: environment(fixture, server, ["AWS_ACCESS_KEY_ID": "reader", "AWS_SECRET_ACCESS_KEY": "readersecret"]))
        #expect(refused == 1)
        let files = try #require(((try json(out))["devices"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])
        #expect(files.count == 2 && files.allSatisfy { $0["status"] as? String == "failed" }, "\(files)")
        #expect(files.allSatisfy { (($0["error"] as? [String: Any])?["message"] as? String)?.contains("AccessDenied") == true }, "\(files)")
        #expect(try await server.keys().isEmpty)
        #expect(try await server.uploadsInProgress() == 0)
        // The device still has everything.
        #expect(fixture.emulator.device.store.object(named: .init("VID_1.mp4")) != nil)
    }
}

/// Small helpers to read the store's answers in the tests.
enum XMLValues {
    static func all(_ name: String, in data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var values: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest[open.upperBound...].range(of: "</\(name)>") {
            values.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return values
    }

    static func json(_ data: Data) -> [String: Any]? { try? JSONSerialization.jsonObject(with: data) as? [String: Any] }
}

/// A device file's bytes, read from the emulator's store.
enum LoopbackContent {
    static func of(_ fixture: ImportEmulatorFixture, _ name: String) throws -> Data {
        let store = fixture.emulator.device.store
        guard let object = store.object(named: .init(name)) else { throw AIBudsError(.unknown, "no \(name)") }
        return try store.read(object, offset: 0, count: Int(object.size))
    }
}
