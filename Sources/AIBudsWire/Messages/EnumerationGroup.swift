import Foundation

// Messages of the Enumeration management group (10), as Zephyr specifies them. See docs/protocol.md.

/// Enumeration count: how many groups the device supports.
public struct EnumCountRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = EnumCountResponse
    /// The Enumeration group.
    public static let group = SMPGroupID.enumeration
    /// Command 0.
    public static let command: UInt8 = 0
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``EnumCountRequest``.
public struct EnumCountResponse: Codable, Sendable, Equatable {
    /// The number of groups.
    public var count: UInt64

    /// Creates the message.
    public init(count: UInt64) {
        self.count = count
    }
}

/// Enumeration list: the ids of every supported group.
public struct EnumListRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = EnumListResponse
    /// The Enumeration group.
    public static let group = SMPGroupID.enumeration
    /// Command 1.
    public static let command: UInt8 = 1
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``EnumListRequest``.
public struct EnumListResponse: Codable, Sendable, Equatable {
    /// The group ids.
    public var groups: [UInt16]

    /// Creates the message.
    public init(groups: [UInt16]) {
        self.groups = groups
    }
}

/// Enumeration single: the group id at an index; past the end gives rc 5 (ENOENT).
public struct EnumSingleRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = EnumSingleResponse
    /// The Enumeration group.
    public static let group = SMPGroupID.enumeration
    /// Command 2.
    public static let command: UInt8 = 2
    /// A read.
    public static let operation = SMPOperation.read

    /// The zero-based index; a request without one asks for index 0, as in Zephyr.
    public var index: UInt64

    /// Creates the message.
    public init(index: UInt64) {
        self.index = index
    }

    /// Decodes the request; an absent `index` is 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        index = try container.decodeIfPresent(UInt64.self, forKey: .index) ?? 0
    }

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case index
    }
}

/// The answer to ``EnumSingleRequest``.
public struct EnumSingleResponse: Codable, Sendable, Equatable {
    /// The group id at the index.
    public var group: UInt16
    /// `true` on the last index.
    public var end: Bool?

    /// Creates the message.
    public init(group: UInt16, end: Bool? = nil) {
        self.group = group
        self.end = end
    }
}

/// Enumeration details: name and handler count of groups.
public struct EnumDetailsRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = EnumDetailsResponse
    /// The Enumeration group.
    public static let group = SMPGroupID.enumeration
    /// Command 3.
    public static let command: UInt8 = 3
    /// A read.
    public static let operation = SMPOperation.read

    /// The groups to describe; all when absent.
    public var groups: [UInt16]?

    /// Creates the message.
    public init(groups: [UInt16]? = nil) {
        self.groups = groups
    }
}

/// The answer to ``EnumDetailsRequest``.
public struct EnumDetailsResponse: Codable, Sendable, Equatable {
    /// One entry per group.
    public var groups: [EnumGroupDetails]

    /// Creates the message.
    public init(groups: [EnumGroupDetails]) {
        self.groups = groups
    }
}

/// One group in ``EnumDetailsResponse``.
public struct EnumGroupDetails: Codable, Sendable, Equatable {
    /// The group id.
    public var group: UInt16
    /// The group name.
    public var name: String
    /// The number of commands the group handles.
    public var handlers: UInt64

    /// Creates the message.
    public init(group: UInt16, name: String, handlers: UInt64) {
        self.group = group
        self.name = name
        self.handlers = handlers
    }
}
