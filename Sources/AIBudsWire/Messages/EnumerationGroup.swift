import Foundation

// Messages of the Enumeration management group (10), as Zephyr specifies them. See docs/protocol.md.

/// Enumeration count: how many groups the device supports.
public typealias EnumCountRequest = SMPEmptyRequest<SMPCommand.EnumCount, EnumCountResponse>

/// The answer to ``EnumCountRequest``.
public struct EnumCountResponse: Codable, Sendable, Equatable {
    /// The number of groups.
    public var count: UInt64

    /// Creates the answer with the number of groups, as the emulator sends it.
    public init(count: UInt64) {
        self.count = count
    }
}

/// Enumeration list: the ids of every supported group.
public typealias EnumListRequest = SMPEmptyRequest<SMPCommand.EnumList, EnumListResponse>

/// The answer to ``EnumListRequest``.
public struct EnumListResponse: Codable, Sendable, Equatable {
    /// The group ids.
    public var groups: [UInt16]

    /// Creates the answer listing the group ids, as the emulator sends it.
    public init(groups: [UInt16]) {
        self.groups = groups
    }
}

/// Enumeration single: the group id at an index; past the end gives rc 5 (ENOENT).
public struct EnumSingleRequest: SMPRequest, Equatable {
    /// The device answers `single` with ``EnumSingleResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = EnumSingleResponse

    /// The zero-based index; a request without one asks for index 0, as in Zephyr.
    public var index: UInt64

    /// Creates the request for the id of the group at position `index` of the device's list.
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

    /// Creates the answer with the group id at the asked index (`end` true on the last one), as the
    /// emulator sends it.
    public init(group: UInt16, end: Bool? = nil) {
        self.group = group
        self.end = end
    }
}

/// Enumeration details: name and handler count of groups.
public struct EnumDetailsRequest: SMPRequest, Equatable {
    /// The device answers `details` with ``EnumDetailsResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = EnumDetailsResponse

    /// The groups to describe; all when absent.
    public var groups: [UInt16]?

    /// Creates the request for the name and handler count of `groups` (of every group when nil).
    public init(groups: [UInt16]? = nil) {
        self.groups = groups
    }
}

/// The answer to ``EnumDetailsRequest``.
public struct EnumDetailsResponse: Codable, Sendable, Equatable {
    /// One entry per group.
    public var groups: [EnumGroupDetails]

    /// Creates the answer with one entry per described group, as the emulator sends it.
    public init(groups: [EnumGroupDetails]) {
        self.groups = groups
    }
}

/// One group in ``EnumDetailsResponse``.
public struct EnumGroupDetails: Codable, Sendable, Equatable {
    /// The group id.
    public var group: UInt16
    /// The group's name as the device gives it, for example `os mgmt` or `device`.
    public var name: String
    /// The number of commands the group handles.
    public var handlers: UInt64

    /// Creates the entry of group id `group`: its name and the number of commands it handles.
    public init(group: UInt16, name: String, handlers: UInt64) {
        self.group = group
        self.name = name
        self.handlers = handlers
    }
}
