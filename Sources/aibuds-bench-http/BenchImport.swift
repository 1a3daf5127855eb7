import AIBudsEmulator
import AIBudsDigest
import Foundation

/// The headline figures: the command users run, `aibuds media import --device udp://HOST:PORT
/// --to DIR --all --json` (a release build), against curl, both fetching the same prepared files
/// from real `aibuds emulator` processes onto the same disk, in the same run, alternating who goes
/// first; then the `wifi` link and dropped connections through the same command.
enum BenchImport {
    /// What every measurement needs.
    struct Setup {
        /// The `aibuds` executable.
        var aibuds: String
        /// The prepared sets.
        var files: String
        /// Where downloads go (deleted at the end of the run).
        var out: String
        var trials: Int
    }

    typealias Sample = BenchRun.Sample

    /// `aibuds media import` against curl for one set on the unlimited link. The import's device
    /// is an emulator serving the set, started before the trials and left to hash its files (its
    /// list then carries their SHA-256); curl's is a second emulator on the same files whose data
    /// plane is open from the start (`--hotspot-open --token bench`). With `withoutListedDigests`,
    /// a third emulator lists no digests, so the import asks for each file's hash.
    static func compare(set: String, title: String, withoutListedDigests: Bool, setup: Setup) async throws -> [String] {
        let entries = try Manifest.read(directory: setup.files, set: set)
        let device = try BenchDevice(aibuds: setup.aibuds, files: setup.files, set: set)
        defer { device.stop() }
        let indexing = try await device.waitForListedDigests(count: entries.count)
        let indexingCPU = device.server.cpuSeconds
        // It does not hash its files: curl checks nothing.
        let open = try BenchDevice(
            aibuds: setup.aibuds, files: setup.files, set: set, extra: ["--hotspot-open", "--token", "bench", "--no-list-digests"])
        defer { open.stop() }
        let base = try await open.dataPlane()
        let bare = withoutListedDigests
            ? try BenchDevice(aibuds: setup.aibuds, files: setup.files, set: set, extra: ["--no-list-digests"]) : nil
        defer { bare?.stop() }

        var imports: [Sample] = []
        var curls: [Sample] = []
        var bares: [Sample] = []
        var loads: [Double] = []
        var deviceCPU: [Double] = []
        var curlWriteBacks: [Double] = []
        for trial in 0..<setup.trials {
            loads.append(oneMinuteLoad())
            let runImport = {
                let destination = "\(setup.out)/\(set)-import-\(trial)"
                let before = device.server.cpuSeconds
                imports.append(try importSet(device.address, entries: entries, destination: destination, setup: setup))
                deviceCPU.append(device.server.cpuSeconds - before)
            }
            let runCurl = {
                let destination = "\(setup.out)/\(set)-curl-\(trial)"
                try recreateDirectory(destination)
                curls.append(try BenchRun.curl(entries: entries, base: base, destination: destination, configPath: "\(setup.out)/\(set)-\(trial).curl"))
                curlWriteBacks.append(settle())
            }
            if trial % 2 == 0 { try runCurl(); try runImport() } else { try runImport(); try runCurl() }
            if let bare {
                bares.append(try importSet(bare.address, entries: entries, destination: "\(setup.out)/\(set)-bare-\(trial)", setup: setup))
            }
        }

        let ratio = BenchRun.median(imports.map(\.wall)) / BenchRun.median(curls.map(\.wall))
        var report = ["", "### \(title)", ""]
        report.append("| client | wall time per trial (s) | median (s) | peak RSS (MiB) | CPU user + sys (s) |")
        report.append("|---|---|---|---|---|")
        report.append(BenchRun.row("`aibuds media import`", imports))
        report.append(BenchRun.row("curl \(BenchRun.curlVersion())", curls))
        if !bares.isEmpty { report.append(BenchRun.row("`aibuds media import`, device lists no digests", bares)) }
        report.append("")
        report.append(String(format: "Import ÷ curl wall time (medians): **%.2f**; curl ÷ import: **%.2f×**.", ratio, 1 / ratio))
        report.append(String(
            format: "The import's emulator hashed its %d files in %.2f s (%.2f CPU s) after it started, before the trials; it used %.2f CPU s per import (median).",
            entries.count, indexing, indexingCPU, BenchRun.median(deviceCPU)))
        report.append(String(
            format: "curl leaves its files in the page cache; the `sync` after each curl trial (not timed) took %.2f s (median). The import's time includes making its files durable.",
            BenchRun.median(curlWriteBacks)))
        report.append(String(format: "1-minute load average before each trial: %@.", loads.map { String(format: "%.1f", $0) }.joined(separator: ", ")))
        return report
    }

    /// The `wifi` link profile (25 MB/s, 5 ms round trip): the import's share of the link rate,
    /// counting the whole command (process start, connection, hotspot, list) and, beside it, curl.
    static func shaped(setup: Setup) async throws -> [String] {
        let entries = try Manifest.read(directory: setup.files, set: "shaped")
        let bytes = Double(entries.reduce(0) { $0 + $1.size })
        let device = try BenchDevice(aibuds: setup.aibuds, files: setup.files, set: "shaped", extra: ["--link", "wifi"])
        defer { device.stop() }
        _ = try await device.waitForListedDigests(count: entries.count)
        let open = try BenchDevice(
            aibuds: setup.aibuds, files: setup.files, set: "shaped",
            extra: ["--link", "wifi", "--hotspot-open", "--token", "bench", "--no-list-digests"])
        defer { open.stop() }
        let base = try await open.dataPlane()
        let linkRate = 25_000_000.0
        var report = ["", "### wifi profile (25 MB/s, 5 ms round trip), 8 × 16 MiB", ""]
        for trial in 0..<min(setup.trials, 3) {
            let load = oneMinuteLoad()
            let sample = try importSet(device.address, entries: entries, destination: "\(setup.out)/shaped-import-\(trial)", setup: setup)
            let inner = (try? JSONSerialization.jsonObject(with: Data(sample.output.utf8)) as? [String: Any])?["seconds"] as? Double
            let destination = "\(setup.out)/shaped-curl-\(trial)"
            try recreateDirectory(destination)
            let curl = try BenchRun.curl(entries: entries, base: base, destination: destination, configPath: "\(setup.out)/shaped-\(trial).curl")
            report.append(String(
                format: "- trial %d (load %.1f): `aibuds media import` %.2f s, **%.1f%%** of the link rate (%.1f%% of the time the command reports, %.2f s); curl %.2f s, %.1f%%",
                trial + 1, load, sample.wall, bytes / sample.wall / linkRate * 100, bytes / (inner ?? sample.wall) / linkRate * 100,
                inner ?? sample.wall, curl.wall, bytes / curl.wall / linkRate * 100))
        }
        return report
    }

    /// `imports` imports of the 64 MiB file through `aibuds media import`, each from a new emulator
    /// that drops the connection once at a random byte (`--fault http-drop=N`): every file must be
    /// byte-identical (hashed on disk), no partial file left, and the drop must have happened (the
    /// emulator logs it); counts the bytes fetched twice.
    static func faults(imports: Int, seed: UInt64, setup: Setup) async throws -> [String] {
        let entries = try Manifest.read(directory: setup.files, set: "fault")
        let entry = entries[0]
        var generator = SeededRandom(seed: seed)
        var extra: Int64 = 0
        var worst: Int64 = 0
        var failures: [String] = []
        var walls: [Double] = []
        let start = ContinuousClock.now
        for index in 0..<imports {
            let dropAt = Int64.random(in: 1..<entry.size, using: &generator)
            let log = "\(setup.out)/fault-\(index).log"
            let device = try BenchDevice(
                aibuds: setup.aibuds, files: setup.files, set: "fault", extra: ["--fault", "http-drop=\(dropAt)", "--verbose"], log: log)
            defer { device.stop() }
            let destination = "\(setup.out)/fault-\(index)"
            do {
                _ = try await device.waitForListedDigests(count: 1)
                let sample = try importSet(device.address, entries: entries, destination: destination, setup: setup)
                walls.append(sample.wall)
                let fetched = try fetchedBytes(sample.output)
                extra += fetched - entry.size
                worst = max(worst, fetched - entry.size)
                if try SHA256.hash(fileAt: URL(fileURLWithPath: "\(destination)/\(entry.name)")) != entry.sha256 {
                    failures.append("import \(index): the bytes on disk differ")
                }
                if !(try String(contentsOfFile: log, encoding: .utf8)).contains("fault: closing at byte \(dropAt)") {
                    failures.append("import \(index): the drop at \(dropAt) did not happen")
                }
            } catch {
                failures.append("import \(index) (drop at \(dropAt)): \(error)")
            }
            try? FileManager.default.removeItem(atPath: destination)
            try? FileManager.default.removeItem(atPath: log)
        }
        let total = Int64(imports) * entry.size
        var report = ["", "### \(imports) imports of 64 MiB through `aibuds media import`, each with one connection drop at a random byte", ""]
        report.append(String(
            format: "- %d of %d byte-identical (hashed on disk) with no partial file left and the drop seen by the emulator; %.1f s in all, median import %.2f s",
            imports - failures.count, imports, seconds(since: start), BenchRun.median(walls)))
        report.append(String(
            format: "- extra bytes fetched: %lld (%.4f%% of %lld; worst import %lld)", extra, Double(extra) * 100 / Double(total), total, worst))
        for failure in failures.prefix(10) { report.append("- FAILED \(failure)") }
        return report
    }

    /// Runs `aibuds media import --device ADDRESS --to DESTINATION --all --json` into a new folder
    /// and checks what it reports and leaves: every file imported with the set's SHA-256 and size,
    /// no partial file.
    static func importSet(_ address: String, entries: [ManifestEntry], destination: String, setup: Setup) throws -> Sample {
        try? FileManager.default.removeItem(atPath: destination)
        let sample = try BenchRun.measure(setup.aibuds, ["media", "import", "--device", address, "--to", destination, "--all", "--json"])
        guard let report = try JSONSerialization.jsonObject(with: Data(sample.output.utf8)) as? [String: Any],
            report["success"] as? Bool == true, let files = report["files"] as? [[String: Any]]
        else { throw BenchFailure("the import into \(destination) did not succeed: \(sample.output.prefix(500))") }
        let byName = Dictionary(files.compactMap { file in (file["name"] as? String).map { ($0, file) } }, uniquingKeysWith: { a, _ in a })
        for entry in entries {
            guard let file = byName[entry.name], file["status"] as? String == "imported", file["sha256"] as? String == entry.sha256.hexString,
                let size = (try? FileManager.default.attributesOfItem(atPath: "\(destination)/\(entry.name)"))?[.size] as? NSNumber,
                size.int64Value == entry.size
            else { throw BenchFailure("\(entry.name) was not imported intact into \(destination)") }
        }
        let partial = (try? FileManager.default.contentsOfDirectory(atPath: "\(destination)/.partial")) ?? []
        guard partial.isEmpty else { throw BenchFailure("the import left \(partial.prefix(3)) in \(destination)/.partial") }
        return sample
    }

    /// The `bytesFetched` of an import's JSON report.
    static func fetchedBytes(_ output: String) throws -> Int64 {
        guard let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let fetched = report["bytesFetched"] as? NSNumber
        else { throw BenchFailure("the import report has no bytesFetched") }
        return fetched.int64Value
    }

    /// The 1-minute load average.
    static func oneMinuteLoad() -> Double {
        Double(loadAverage().split(separator: " ").first ?? "") ?? .nan
    }
}
