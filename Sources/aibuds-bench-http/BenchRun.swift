import Foundation

/// `run --work DIR [--trials N] [--aibuds PATH] [--skip-engine] [--skip-faults] [--fault-imports N]
/// [--sweep] [--only large|small|shaped|faults]`: the whole HTTP data-plane benchmark in one run, printed as Markdown: first the
/// command users run (`aibuds media import`, see ``BenchImport``) against curl, then the download
/// engine alone against curl. Needs `/usr/bin/time`, `curl` and a release build of `aibuds`.
enum BenchRun {
    /// One measured process run.
    struct Sample {
        var wall: Double
        var maxRSSKiB: Int
        var userSeconds: Double
        var systemSeconds: Double
        var output: String
    }

    static func run(_ options: Options) async throws {
        let work = try options.require("--work")
        let trials = try options.int("--trials", default: 3)
        let me = CommandLine.arguments[0]
        let files = "\(work)/files"
        let out = "\(work)/out-\(Int(Date().timeIntervalSince1970))"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: out) }
        let loadBefore = loadAverage()

        for (set, count, size) in [("large", 4, "256M"), ("small", 2000, "64K"), ("shaped", 8, "16M"), ("fault", 1, "64M")]
        where !FileManager.default.fileExists(atPath: Manifest.path(directory: files, set: set)) {
            _ = try measure(me, ["prepare", "--dir", files, "--set", set, "--count", "\(count)", "--size", size])
        }
        var report: [String] = []
        report.append("- date: \(Date()); machine: \(ProcessInfo.processInfo.processorCount) cores; load average before: \(loadBefore)")

        // The command users run, against curl: the headline figures.
        let aibuds = options.value("--aibuds") ?? URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("aibuds").path
        guard FileManager.default.isExecutableFile(atPath: aibuds) else {
            throw BenchFailure("no aibuds at \(aibuds): swift build -c release --product aibuds (or give --aibuds PATH)")
        }
        let setup = BenchImport.Setup(aibuds: aibuds, files: files, out: out, trials: trials)
        report += ["", "## `aibuds media import` against curl"]
        // `--only PART` measures one part of the import comparison and leaves out the engine figures.
        let only = options.value("--only")
        let wanted = { (part: String) in only == nil || only == part }
        if wanted("large") {
            report += try await BenchImport.compare(set: "large", title: "4 × 256 MiB, unlimited link", withoutListedDigests: false, setup: setup)
        }
        if wanted("small") {
            report += try await BenchImport.compare(set: "small", title: "2,000 × 64 KiB, unlimited link", withoutListedDigests: true, setup: setup)
        }
        if wanted("shaped") { report += try await BenchImport.shaped(setup: setup) }
        if wanted("faults"), !options.flag("--skip-faults") {
            report += try await BenchImport.faults(imports: try options.int("--fault-imports", default: 100), seed: 42, setup: setup)
        }
        if only == nil, !options.flag("--skip-engine") {
            report += ["", "## The download engine alone (`HTTPFileDownloader`)"]
            report += try engine(me: me, files: files, out: out, trials: trials, options: options)
        }
        report.append("")
        report.append("- load average after: \(loadAverage())")
        say(report.joined(separator: "\n"))
    }

    /// The download engine (`fetch`, in its own process) against curl, both from `serve`
    /// processes (the emulator's data-plane server on a folder).
    static func engine(me: String, files: String, out: String, trials: Int, options: Options) throws -> [String] {
        let unlimited = try Server(me, ["serve", "--dir", files, "--token", "bench"])
        defer { unlimited.stop() }
        let wifi = try Server(me, ["serve", "--dir", files, "--token", "bench", "--profile", "wifi"])
        defer { wifi.stop() }
        var report: [String] = []

        // Bulk and small files, client against curl; then the small files into tmpfs, where fsync
        // costs nothing: the HTTP and CPU side alone.
        report += try engineVersusCurl(me: me, set: "large", title: "Engine: 4 × 256 MiB, unlimited link", files: files, folder: out, server: unlimited, trials: trials)
        report += try engineVersusCurl(me: me, set: "small", title: "Engine: 2,000 × 64 KiB, unlimited link", files: files, folder: out, server: unlimited, trials: trials)
        if FileManager.default.fileExists(atPath: "/dev/shm") {
            let shm = "/dev/shm/aibuds-bench-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: shm) }
            report += try engineVersusCurl(
                me: me, set: "small", title: "Engine: 2,000 × 64 KiB into tmpfs (/dev/shm): no disk, so fsync is free", files: files, folder: shm,
                server: unlimited, trials: trials, removingEach: true)
        }

        if options.flag("--sweep") {
            // How many files at once: the measurement behind the default parallelism.
            report.append("")
            report.append("### Engine: parallelism sweep (client only, wall seconds)")
            report.append("")
            let widths = [1, 2, 4, 6, 8]
            report.append("| files at once | " + widths.map(String.init).joined(separator: " | ") + " |")
            report.append("|---|" + widths.map { _ in "---|" }.joined())
            for set in ["large", "small"] {
                var cells: [String] = []
                for parallel in widths {
                    let destination = "\(out)/sweep-\(set)-\(parallel)"
                    try recreateDirectory(destination)
                    let sample = try measure(me, [
                        "fetch", "--base", unlimited.url, "--token", "bench", "--dir", files, "--set", set, "--dest", destination,
                        "--parallel", "\(parallel)",
                    ])
                    cells.append(String(format: "%.2f", sample.wall))
                    try? FileManager.default.removeItem(atPath: destination)
                }
                report.append("| \(set) | " + cells.joined(separator: " | ") + " |")
            }
        }

        // The wifi profile: fraction of the link rate.
        let shapedEntries = try Manifest.read(directory: files, set: "shaped")
        let shapedBytes = Double(shapedEntries.reduce(0) { $0 + $1.size })
        var shaped: [(wall: Double, inner: Double)] = []
        for trial in 0..<min(trials, 2) {
            let destination = "\(out)/shaped-\(trial)"
            try recreateDirectory(destination)
            let sample = try measure(me, ["fetch", "--base", wifi.url, "--token", "bench", "--dir", files, "--set", "shaped", "--dest", destination])
            shaped.append((sample.wall, innerSeconds(sample.output) ?? sample.wall))
        }
        let linkRate = 25_000_000.0
        report.append("")
        report.append("### Engine: wifi profile (25 MB/s, 5 ms round trip), 8 × 16 MiB")
        report.append("")
        for (index, run) in shaped.enumerated() {
            report.append(String(format: "- trial %d: %.2f s transfer (%.2f s with process start): **%.1f%%** of the link rate",
                index + 1, run.inner, run.wall, shapedBytes / run.inner / linkRate * 100))
        }

        if !options.flag("--skip-faults") {
            let imports = try options.int("--fault-imports", default: 100)
            let sample = try measure(me, ["faults", "--dir", files, "--set", "fault", "--out", "\(out)/faults", "--imports", "\(imports)"])
            report.append("")
            report.append("### Engine: \(imports) downloads of 64 MiB, each with one connection drop at a random byte")
            report.append("")
            for line in sample.output.split(separator: "\n") { report.append("- " + line.replacingOccurrences(of: "faults: ", with: "")) }
        }
        return report
    }

    /// The engine (`fetch`, in its own process) against curl on one set from `server`, `trials`
    /// times, alternating who goes first, each into a new folder under `folder` (deleted at once
    /// with `removingEach`, else at the end of the run); returns the report's lines.
    static func engineVersusCurl(
        me: String, set: String, title: String, files: String, folder: String, server: Server, trials: Int, removingEach: Bool = false
    ) throws -> [String] {
        let entries = try Manifest.read(directory: files, set: set)
        var ours: [Sample] = []
        var curls: [Sample] = []
        var serverCPU: [Double] = []
        for trial in 0..<trials {
            func run(_ client: String, _ body: (String) throws -> Sample) throws -> Sample {
                let destination = "\(folder)/\(set)-\(client)-\(trial)"
                try recreateDirectory(destination)
                let before = server.cpuSeconds
                let sample = try body(destination)
                serverCPU.append(server.cpuSeconds - before)
                if removingEach { try? FileManager.default.removeItem(atPath: destination) }
                return sample
            }
            let runOurs = {
                ours.append(try run("ours") { destination in
                    try measure(me, ["fetch", "--base", server.url, "--token", "bench", "--dir", files, "--set", set, "--dest", destination])
                })
            }
            let runCurl = {
                curls.append(try run("curl") { destination in
                    try curl(entries: entries, base: server.url, destination: destination, configPath: "\(destination).curl")
                })
            }
            if trial % 2 == 0 { try runCurl(); try runOurs() } else { try runOurs(); try runCurl() }
        }
        let ratio = median(ours.map(\.wall)) / median(curls.map(\.wall))
        let speed = ratio <= 1 ? String(format: "client %.2f× faster", 1 / ratio) : "client slower"
        return [
            "", "### \(title)", "",
            "| client | wall time per trial (s) | median (s) | peak RSS (MiB) | CPU user + sys (s) |",
            "|---|---|---|---|---|",
            row("AIBuds `HTTPFileDownloader`", ours),
            row("curl \(curlVersion())", curls),
            "",
            String(format: "Client ÷ curl wall time (medians): **%.2f**", ratio) + " (\(speed)).",
            String(format: "The server (thread per connection, sendfile) used %.2f CPU seconds per run (median).", median(serverCPU)),
        ]
    }

    /// A running `serve` child process.
    final class Server {
        let process = Process()
        let url: String

        /// Starts `executable` and reads its first line, whose third word is its address; standard
        /// error goes to `log` when given.
        init(_ executable: String, _ arguments: [String], log: String? = nil) throws {
            let pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = pipe
            if let log {
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                process.standardError = FileHandle(forWritingAtPath: log)
            }
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = pipe.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw BenchFailure("the server exited") }
                line += chunk
            }
            let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard words.count >= 3 else { throw BenchFailure("unexpected server output") }
            url = String(words[2])
        }

        /// Asks the process to end (SIGTERM: an emulator removes its announcement); kills it when
        /// it is still there after 3 s (a child inherits the runner thread's blocked signals).
        func stop() {
            process.terminate()
            let deadline = ContinuousClock.now + .seconds(3)
            while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// CPU seconds (user + system) the server has used so far, from /proc.
        var cpuSeconds: Double {
            guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return 0 }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
    }

    /// Runs a command and measures it (`BenchSpawn`), after a `sync` (not timed) so that no run
    /// pays for writing back the files an earlier one left in the page cache; throws on a
    /// non-zero exit.
    static func measure(_ executable: String, _ arguments: [String]) throws -> Sample {
        _ = settle()
        let (status, sample) = try BenchSpawn.run(executable, arguments)
        guard status == 0 else {
            throw BenchFailure("\(executable) \(arguments.prefix(3).joined(separator: " ")) exited with \(status)")
        }
        return sample
    }

    /// curl fetching every file of a set, in order, in one process (one kept-alive connection).
    static func curl(entries: [ManifestEntry], base: String, destination: String, configPath: String) throws -> Sample {
        let config = entries.map { "url = \"\(base)/media/\($0.name)\"\noutput = \"\(destination)/\($0.name)\"\n" }.joined()
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        return try measure("/usr/bin/curl", ["-s", "-S", "--fail", "-H", "Authorization: Bearer bench", "-K", configPath])
    }

    /// Runs a program to completion; returns its standard output; throws on a non-zero exit.
    @discardableResult
    static func launch(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchFailure("\(executable) \(arguments.prefix(3).joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func curlVersion() -> String {
        ((try? launch("/usr/bin/curl", ["--version"])) ?? "").split(separator: " ").dropFirst().first.map(String.init) ?? "?"
    }

    static func innerSeconds(_ output: String) -> Double? {
        guard let range = output.range(of: #"in [0-9.]+ s"#, options: .regularExpression) else { return nil }
        return Double(output[range].dropFirst(3).dropLast(2))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func row(_ name: String, _ samples: [Sample]) -> String {
        let walls = samples.map { String(format: "%.2f", $0.wall) }.joined(separator: ", ")
        let rss = samples.map(\.maxRSSKiB).max() ?? 0
        let cpu = median(samples.map { $0.userSeconds + $0.systemSeconds })
        return "| \(name) | \(walls) | " + String(format: "%.2f | %.1f | %.2f |", median(samples.map(\.wall)), Double(rss) / 1024, cpu)
    }
}
