import Foundation

/// The project's folders on this host, by the XDG Base Directory Specification: each is the
/// variable's value when it is an absolute path, else its default under `$HOME`.
public enum XDGFolder {
    /// `$XDG_DATA_HOME/aibuds`, or `~/.local/share/aibuds`: what the user keeps (stored devices,
    /// dashboard records).
    public static func data(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_DATA_HOME", ".local/share", environment)
    }

    /// `$XDG_STATE_HOME/aibuds`, or `~/.local/state/aibuds`: what the SDK keeps about its runs (the
    /// log store, crash reports).
    public static func state(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_STATE_HOME", ".local/state", environment)
    }

    /// `~/.cache/aibuds`: where the project's scripts install models and runtimes from PyPI
    /// (`scripts/vad-venv.sh`, `scripts/asr-model.sh`), a fixed place the scripts and the SDK agree
    /// on (`$XDG_CACHE_HOME` is not followed).
    public static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/aibuds", isDirectory: true)
    }

    private static func folder(_ variable: String, _ fallback: String, _ environment: [String: String]) -> URL {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value).appendingPathComponent("aibuds", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(fallback).appendingPathComponent("aibuds", isDirectory: true)
    }
}
