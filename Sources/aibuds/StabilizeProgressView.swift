import AIBudsSync
import Foundation

/// A one-line percentage on stderr, redrawn at most ten times a second while a video stabilizes.
final class StabilizeProgressView: Sendable {
    private let enabled: Bool
    private let name: String
    private let lastShown = Locked<(percent: Int, at: ContinuousClock.Instant?)>((-1, nil))

    init(enabled: Bool, name: String) {
        self.enabled = enabled
        self.name = name
    }

    /// Shows `fraction` (0.0–1.0); called from the stabilizing thread.
    @Sendable func show(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int((fraction * 100).rounded(.down))
        let now = ContinuousClock.now
        let draw = lastShown.withLock { state -> Bool in
            if percent == state.percent { return false }
            if let at = state.at, now - at < .milliseconds(100), percent < 100 { return false }
            state = (percent, now)
            return true
        }
        if draw { FileHandle.standardError.write(Data("\r\u{1B}[2KStabilizing \(name)  \(percent)%".utf8)) }
    }

    /// Ends the line.
    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
