import AIBudsFiles
import Foundation

/// Where the SDK keeps its files on this host (XDG Base Directory Specification).
public enum DataDirectory {
    /// `$XDG_DATA_HOME/aibuds`, or `~/.local/share/aibuds` when `XDG_DATA_HOME` is unset or not absolute.
    public static var aibuds: URL { XDGFolder.data() }

    /// The default stored-devices file, `<data dir>/aibuds/devices.json`.
    public static var storedDevicesFile: URL { aibuds.appendingPathComponent("devices.json") }
}
