import AIBudsLog
import AIBudsSync
import CCrashHandler
import Foundation

/// Captures the app's crashes — fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGABRT) and Swift runtime
/// traps (SIGILL, SIGTRAP: nil unwraps, index out of range, failed preconditions) — and writes one
/// report per crash into a directory of its own; on the next start, ``install(directory:appName:appVersion:handler:)``
/// hands the app each report that is not yet marked handled.
///
/// A report is plain text: time, signal and its meaning, the crashed thread (id, name, main or
/// background), a Swift trap's message (`message: Fatal error: Index out of range`, read from the
/// buffer the Swift runtime fills before it traps) and the backtrace with the symbol names the
/// dynamic symbol table has, the SDK version, the state of every device the app described (``setDeviceState(_:for:)``) and the last
/// log lines (route logs through ``logDestination``). The handler is C code that makes only
/// async-signal-safe calls into buffers prepared beforehand; it writes `crash-<seconds>-<pid>.txt`
/// (through a `.partial` file renamed when complete), then lets the process die of the signal.
/// The other threads' backtraces follow the crashed thread's (`other threads:`): the handler sends
/// each a real-time signal (`SIGRTMAX - 2`, taken only at the crash) whose handler writes its own
/// backtrace; a thread that does not answer within 100 ms (one blocking that signal) is named only.
public final class CrashReporter: Sendable {
    /// The one reporter of the process (signal handlers are process-wide).
    public static let shared = CrashReporter()
    /// The SDK version written into every report.
    public static let sdkVersion = AIBudsVersion.semantic

    private struct State {
        var directory: URL?
        var deviceSlots: [String: Int32] = [:]
    }

    private let state = Locked(State())

    private init() {}

    /// The directory reports are written to, once installed.
    public var directory: URL? { state.withLock { $0.directory } }

    /// Installs the crash handler writing into `directory` (created when missing), then calls
    /// `handler` with the path of every earlier report not yet marked handled, oldest first.
    /// `appName` and `appVersion` go into each report's header. Throws a `CocoaError` when the
    /// directory cannot be created or read.
    public func install(
        directory: URL, appName: String = ProcessInfo.processInfo.processName, appVersion: String = "",
        handler: (URL) -> Void
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.standardizedFileURL.path
        var header = "sdk: AIBuds \(Self.sdkVersion)\napp: \(Self.oneLine(appName))"
        if !appVersion.isEmpty { header += " \(Self.oneLine(appVersion))" }
        header += "\nos: \(Self.oneLine(ProcessInfo.processInfo.operatingSystemVersionString))\n"
        guard crash_handler_install(path, header) == 0 else {
            throw CrashReporterError.cannotInstall(errno: errno)
        }
        state.withLock { $0.directory = directory }
        for report in try pendingReports() { handler(report) }
    }

    /// Removes the handler (the signals' earlier actions come back).
    public func uninstall() {
        crash_handler_uninstall()
        state.withLock { $0.directory = nil }
    }

    /// Every complete report in the directory not yet marked handled, oldest first; throws a
    /// `CocoaError` when the directory cannot be read.
    public func pendingReports() throws -> [URL] {
        guard let directory else { return [] }
        return try Self.pendingReports(in: directory)
    }

    /// The complete reports in `directory` not yet marked handled, oldest first; throws a
    /// `CocoaError` when the directory cannot be read.
    public static func pendingReports(in directory: URL) throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let handled = Set(names.filter { $0.hasSuffix(".handled") }.map { String($0.dropLast(".handled".count)) })
        return names.filter { $0.hasPrefix("crash-") && $0.hasSuffix(".txt") && !handled.contains($0) }
            .sorted { reportOrder($0) < reportOrder($1) }
            .map { directory.appendingPathComponent($0) }
    }

    private static func reportOrder(_ name: String) -> (Int, String) {
        let parts = name.dropFirst("crash-".count).split(separator: "-")
        return (parts.first.flatMap { Int($0) } ?? 0, name)
    }

    /// Marks `report` handled (a `.handled` file beside it), so later starts no longer pass it on;
    /// the report itself stays for the app to delete when it wants. Throws a `CocoaError` when
    /// the mark cannot be written.
    public func markHandled(_ report: URL) throws {
        let marker = report.deletingLastPathComponent().appendingPathComponent(report.lastPathComponent + ".handled")
        guard FileManager.default.createFile(atPath: marker.path, contents: Data()) else {
            throw CrashReporterError.cannotMarkHandled(report.path)
        }
    }

    /// Describes `device` in every report from now on (for example
    /// `connected, battery 80%, recording`); an empty `state` removes it. At most 16 devices are
    /// described at once; others are left out.
    public func setDeviceState(_ state: String, for device: String) {
        let text = Self.oneLine("\(device): \(state)")
        self.state.withLock { current in
            if state.isEmpty {
                if let slot = current.deviceSlots.removeValue(forKey: device) { crash_handler_set_device(slot, "") }
                return
            }
            let slot: Int32
            if let existing = current.deviceSlots[device] {
                slot = existing
            } else {
                let used = Set(current.deviceSlots.values)
                guard let free = (0..<Int32(CRASH_HANDLER_DEVICE_SLOTS)).first(where: { !used.contains($0) }) else { return }
                slot = free
                current.deviceSlots[device] = slot
            }
            crash_handler_set_device(slot, text)
        }
    }

    /// A log destination that keeps the last 64 lines for the next report; add it to the app's log
    /// service (it copies each line into a fixed buffer, no file I/O).
    public let logDestination: any LogDestination = CrashLogLines()

    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\0", with: "")
    }
}

/// Keeps each line in the crash handler's ring of recent log lines.
final class CrashLogLines: LogDestination {
    private let formatter = LogFormatter()

    func write(_ record: LogRecord) {
        var line = formatter.format(record)
        if let device = record.device { line += " [device \(device)]" }
        crash_handler_append_log(line.replacingOccurrences(of: "\0", with: ""))
    }
}

/// The crash reporter could not do what was asked.
public enum CrashReporterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Installing the signal handlers failed (the directory path too long, or `sigaction` refused).
    case cannotInstall(errno: Int32)
    /// The `.handled` marker beside the report could not be created.
    case cannotMarkHandled(String)

    /// Says what failed and why.
    public var description: String {
        switch self {
        case .cannotInstall(let code): "cannot install the crash handler: \(String(cString: strerror(code)))"
        case .cannotMarkHandled(let path): "cannot mark \(path) handled"
        }
    }
}
