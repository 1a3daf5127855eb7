import AIBudsAIDashboard
import AIBudsAIDashboardBridge
import Foundation

/// Where `aibuds ai` sessions are recorded for the dashboard: the same store `aibuds dashboard`
/// serves (`--records DIR`, default `$XDG_DATA_HOME/aibuds/dashboard`), so a dashboard running
/// in another terminal shows a session live while it runs. `--no-records` turns it off.
struct AISessionRecords {
    static let help = """
          --records DIR    record the session for the dashboard in DIR (default: the folder
                           `aibuds dashboard` serves, $XDG_DATA_HOME/aibuds/dashboard)
          --no-records     do not record the session
        """

    /// The records folder, or nil with `--no-records`.
    var directory: URL?

    /// Records into `directory` (nil: not at all).
    init(directory: URL?) {
        self.directory = directory
    }

    init(_ arguments: inout Arguments) throws {
        let chosen = try arguments.option("--records")
        if arguments.flag("--no-records") {
            guard chosen == nil else { throw CommandFailure.usage("give --records DIR or --no-records, not both") }
            directory = nil
        } else {
            directory = chosen.map { URL(fileURLWithPath: $0) } ?? Self.defaultDirectory()
        }
    }

    /// `$XDG_DATA_HOME/aibuds/dashboard` (`~/.local/share/aibuds/dashboard` without it).
    static func defaultDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.local/share")
        return URL(fileURLWithPath: base + "/aibuds/dashboard")
    }

    /// Records every session of this process from now on (the AI SDK keeps the observer for
    /// the command's life). A store that cannot be opened is a warning, never the session's failure.
    func start() {
        guard let directory else { return }
        do {
            AIDashboardSessionObserver(recorder: AIRecorder(store: try AIRecordStore(directory: directory))).register()
        } catch {
            FileHandle.standardError.write(Data("warning: the session is not recorded for the dashboard: \(error)\n".utf8))
        }
    }
}
