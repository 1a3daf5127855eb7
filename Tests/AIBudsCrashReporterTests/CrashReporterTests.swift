import AIBudsCrashReporter
import AIBudsTestKit
import Foundation
import Testing

/// The `aibuds-crash-child` program built next to the test bundle.
func crashChild() throws -> URL { try requireBuiltProduct("aibuds-crash-child") }

@Suite(.timeLimit(.minutes(3))) struct CrashReporterTests {
    /// Crashes the child in `kind`'s way and returns the one report it left and how it ended.
    func crash(_ kind: String, in directory: URL) async throws -> (report: String, result: ProgramResult) {
        let result = try await runProgram(try crashChild(), [kind, directory.path])
        let reports = try CrashReporter.pendingReports(in: directory)
        #expect(reports.count == 1, "\(kind): \(result.err)")
        let report = try String(contentsOf: try #require(reports.first), encoding: .utf8)
        return (report, result)
    }

    func expectCommonParts(_ report: String, kind: String) {
        #expect(report.hasPrefix("AIBuds crash report\n"))
        #expect(report.contains("sdk: AIBuds \(CrashReporter.sdkVersion)\n"))
        #expect(report.contains("app: crash-child 1.2\n"))
        #expect(report.contains("glasses-7: connected, battery 81%, recording"))
        #expect(report.contains("[info] app: starting \(kind)"))
        // The log line went through the redacting service before it reached the report.
        #expect(report.contains("token=<redacted> about to crash [device glasses-7]"))
        #expect(!report.contains("abc123secret"))
        #expect(report.hasSuffix("end\n"))
        let backtrace = report.components(separatedBy: "backtrace (crashed thread):\n").last?
            .components(separatedBy: "devices:").first ?? ""
        #expect(backtrace.split(separator: "\n").count >= 3, "\(report)")
    }

    @Test func nilUnwrapIsReportedAsASwiftTrap() async throws {
        let directory = try makeTemporaryDirectory()
        let (report, result) = try await crash("nil-unwrap", in: directory)
        #expect(!result.exited && result.status == SIGILL)
        #expect(report.contains("signal: 4 SIGILL (Swift runtime trap"))
        #expect(report.contains("(main)\n"))
        // The runtime's own words for the trap, as it printed them on stderr.
        #expect(report.contains("\nmessage: ") && report.contains("Fatal error: Unexpectedly found nil while unwrapping an Optional value\n"), "\(report)")
        expectCommonParts(report, kind: "nil-unwrap")
        // The app's own function is named (the child links with --export-dynamic).
        #expect(report.contains("crash"), "\(report)")
    }

    @Test func arrayIndexOutOfRangeIsReported() async throws {
        let directory = try makeTemporaryDirectory()
        let (report, result) = try await crash("array-index", in: directory)
        #expect(!result.exited && result.status == SIGILL)
        #expect(report.contains("SIGILL"))
        #expect(report.contains("Fatal error: Index out of range\n"), "\(report)")
        // The trap is raised from the standard library's assertion machinery.
        #expect(report.contains("libswiftCore.so"))
        expectCommonParts(report, kind: "array-index")
    }

    @Test func segmentationFaultIsReportedWithTheAddress() async throws {
        let directory = try makeTemporaryDirectory()
        let (report, result) = try await crash("segv", in: directory)
        #expect(!result.exited && result.status == SIGSEGV)
        #expect(report.contains("signal: 11 SIGSEGV (invalid memory access)"))
        #expect(report.contains("address: 0x8\n"))
        #expect(!report.contains("\nmessage: "))
        expectCommonParts(report, kind: "segv")
    }

    @Test func abortIsReported() async throws {
        let directory = try makeTemporaryDirectory()
        let (report, result) = try await crash("abort", in: directory)
        #expect(!result.exited && result.status == SIGABRT)
        #expect(report.contains("signal: 6 SIGABRT (abort())"))
        expectCommonParts(report, kind: "abort")
    }

    @Test func crashOnABackgroundThreadNamesThatThread() async throws {
        let directory = try makeTemporaryDirectory()
        let (report, result) = try await crash("background-thread", in: directory)
        #expect(!result.exited && result.status == SIGILL)
        let threadLine = try #require(report.split(separator: "\n").first { $0.hasPrefix("thread: ") })
        #expect(threadLine.hasSuffix("(background)"))
        let pidLine = try #require(report.split(separator: "\n").first { $0.hasPrefix("pid: ") })
        #expect(threadLine.split(separator: " ")[1] != pidLine.split(separator: " ")[1])
        // Foundation's thread entry point is on the crashed thread's stack, not main's.
        #expect(report.contains("Foundation6ThreadC4main"))
        // The other threads' backtraces follow: main's, with the program's entry point on it.
        let others = try #require(report.components(separatedBy: "other threads:\n").last?.components(separatedBy: "devices:").first)
        let pid = pidLine.split(separator: " ")[1]
        let mainSection = try #require(others.components(separatedBy: "thread \(pid) ").dropFirst().first, "\(report)")
        #expect(mainSection.contains("(main):\n"))
        #expect(mainSection.contains("aibuds_crash_child_main"), "\(report)")
        expectCommonParts(report, kind: "background-thread")
    }

    @Test func nextStartHandsOverEachReportUntilMarkedHandled() async throws {
        let directory = try makeTemporaryDirectory()
        _ = try await runProgram(try crashChild(), ["segv", directory.path])
        _ = try await runProgram(try crashChild(), ["abort", directory.path])
        let reports = try CrashReporter.pendingReports(in: directory)
        #expect(reports.count == 2)
        // The next start is handed both paths, and this child marks them handled.
        let first = try await runProgram(try crashChild(), ["none", directory.path])
        #expect(first.exited && first.status == 0)
        let pending = first.out.split(separator: "\n").filter { $0.hasPrefix("pending ") }.map { String($0.dropFirst(8)) }
        #expect(Set(pending) == Set(reports.map(\.path)))
        // The start after that is handed nothing; the reports themselves stay.
        let second = try await runProgram(try crashChild(), ["none", directory.path])
        #expect(!second.out.contains("pending "))
        #expect(try CrashReporter.pendingReports(in: directory).isEmpty)
        #expect(reports.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        // No half-written report is ever passed on.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.hasSuffix(".partial") })
    }
}
