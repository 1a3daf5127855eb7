import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one renderer of live progress on standard output: permanent lines scroll above a block of
/// live lines that is redrawn in place at most ten times a second on a terminal; on a pipe the
/// permanent lines come as they are added and a progress line every five seconds; nothing at all
/// when the command prints JSON. The import's and the station's progress views draw through it.
///
/// Used from the one task that consumes the events, so it needs no lock.
final class LiveLines {
    /// How the lines are written.
    enum Style {
        /// ANSI redraws, `width` columns.
        case terminal(width: Int)
        /// One line per milestone, a progress line every few seconds.
        case plain
        /// Nothing (the command prints JSON).
        case silent

        /// `.terminal` when standard output is a terminal, else `.plain`; `.silent` when `quiet`.
        static func detect(quiet: Bool) -> Style {
            if quiet { return .silent }
            guard isatty(STDOUT_FILENO) == 1 else { return .plain }
            var size = winsize()
            let columns = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
            return .terminal(width: max(50, columns))
        }
    }

    let style: Style
    private let clock = ContinuousClock()
    private var pending: [String] = []
    private var drawnLines = 0
    private var lastDraw: ContinuousClock.Instant?
    private var lastPlainProgress: ContinuousClock.Instant

    /// Creates a renderer in `style`.
    init(style: Style) {
        self.style = style
        lastPlainProgress = clock.now
    }

    /// Whether nothing is written.
    var isSilent: Bool {
        if case .silent = style { return true }
        return false
    }

    /// Whether the output is a pipe or a file.
    var isPlain: Bool {
        if case .plain = style { return true }
        return false
    }

    /// Adds a permanent line, written at the next ``draw(force:live:plainProgress:)``.
    func add(_ text: String) {
        switch style {
        case .silent: return
        case .plain: pending.append(text)
        case .terminal: pending.append(TerminalText.keepingLines(text))
        }
    }

    /// Writes the permanent lines added since the last draw, then, on a terminal, the live lines
    /// `live()` gives (unless the last frame is under 100 ms old and `force` is false); on a pipe,
    /// the line `plainProgress()` gives, at most every five seconds.
    func draw(force: Bool = false, live: () -> [String], plainProgress: () -> String?) {
        let now = clock.now
        switch style {
        case .silent:
            return
        case .plain:
            for text in pending { CLI.say(text) }
            pending.removeAll()
            if now - lastPlainProgress >= .seconds(5), let text = plainProgress() {
                lastPlainProgress = now
                CLI.say(text)
            }
        case .terminal(let width):
            if !force, let lastDraw, now - lastDraw < .milliseconds(100) { return }
            lastDraw = now
            var out = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
            for text in pending { out += "\r\u{1B}[2K" + TerminalText.fit(text, width) + "\n" }
            pending.removeAll()
            let lines = live()
            for text in lines { out += "\r\u{1B}[2K" + TerminalText.fit(text, width) + "\n" }
            // Clear lines left over from a taller previous frame.
            let stale = max(0, drawnLines - lines.count)
            for _ in 0..<stale { out += "\r\u{1B}[2K\n" }
            if stale > 0 { out += "\u{1B}[\(stale)A" }
            drawnLines = lines.count
            FileHandle.standardOutput.write(Data(out.utf8))
        }
    }

    /// Removes the live lines (before a summary).
    func clear() {
        guard case .terminal = style, drawnLines > 0 else { return }
        var out = "\u{1B}[\(drawnLines)A"
        for _ in 0..<drawnLines { out += "\r\u{1B}[2K\n" }
        out += "\u{1B}[\(drawnLines)A"
        drawnLines = 0
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}
