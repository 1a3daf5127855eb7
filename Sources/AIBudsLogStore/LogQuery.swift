import AIBudsLog
import Foundation

/// Which stored log records to read, export or count: every condition given must hold.
public struct LogQuery: Hashable, Sendable {
    /// Records logged at or after this time.
    public var since: Date?
    /// Records logged before this time.
    public var until: Date?
    /// Records at this level or more severe.
    public var minimumLevel: LogLevel?
    /// Records of this module (the record's category, such as `smp`).
    public var module: String?
    /// Records about this device.
    public var device: String?
    /// At most this many records (the newest ones), returned oldest first.
    public var limit: Int?

    /// A query; with no arguments it matches every record.
    public init(
        since: Date? = nil, until: Date? = nil, minimumLevel: LogLevel? = nil, module: String? = nil,
        device: String? = nil, limit: Int? = nil
    ) {
        self.since = since
        self.until = until
        self.minimumLevel = minimumLevel
        self.module = module
        self.device = device
        self.limit = limit
    }
}
