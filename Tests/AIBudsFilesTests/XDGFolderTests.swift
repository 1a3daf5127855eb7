import AIBudsFiles
import Foundation
import Testing

/// The project's folders follow the XDG variables when they are absolute paths, else $HOME.
@Suite struct XDGFolderTests {
    @Test func absoluteVariablesWinAndRelativeOnesAreIgnored() {
        let set = ["HOME": "/home/u", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state", "XDG_CACHE_HOME": "/cache"]
        #expect(XDGFolder.data(environment: set).path == "/data/aibuds")
        #expect(XDGFolder.state(environment: set).path == "/state/aibuds")
        // The scripts install into ~/.cache/aibuds whatever XDG_CACHE_HOME says; the SDK looks there.
        #expect(XDGFolder.cache(environment: set).path == "/home/u/.cache/aibuds")
        let relative = ["HOME": "/home/u", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": ""]
        #expect(XDGFolder.data(environment: relative).path == "/home/u/.local/share/aibuds")
        #expect(XDGFolder.state(environment: relative).path == "/home/u/.local/state/aibuds")
    }
}
