import AIBudsSync

/// The default log service: filters by a minimum level, redacts secrets, and hands each record to
/// every destination.
public final class FanOutLogService: LogService {
    private struct State {
        var minimumLevel: LogLevel
        var destinations: [any LogDestination]
    }

    private let state: Locked<State>
    private let redactor: LogRedactor

    /// Creates a service writing to `destinations`, redacting with `redactor`.
    public init(
        minimumLevel: LogLevel = .info, destinations: [any LogDestination] = [], redactor: LogRedactor = .shared
    ) {
        state = Locked(State(minimumLevel: minimumLevel, destinations: destinations))
        self.redactor = redactor
    }

    /// The least severe level recorded; settable at run time.
    public var minimumLevel: LogLevel {
        get { state.withLock { $0.minimumLevel } }
        set { state.withLock { $0.minimumLevel = newValue } }
    }

    /// Makes every record logged from now on go to `destination` too.
    public func addDestination(_ destination: any LogDestination) {
        state.withLock { $0.destinations.append(destination) }
    }

    /// Replaces every destination with `destinations` at once.
    public func replaceDestinations(_ destinations: [any LogDestination]) {
        state.withLock { $0.destinations = destinations }
    }

    /// Drops every destination, so records go nowhere until one is added.
    public func removeAllDestinations() {
        state.withLock { $0.destinations.removeAll() }
    }

    /// Redacts the record and writes it to every destination, when its level is recorded.
    public func log(_ record: LogRecord) {
        let (level, destinations) = state.withLock { ($0.minimumLevel, $0.destinations) }
        guard record.level >= level, !destinations.isEmpty else { return }
        let clean = redactor.redact(record)
        for destination in destinations {
            destination.write(clean)
        }
    }
}
