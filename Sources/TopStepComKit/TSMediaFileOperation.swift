/// The operations a device supports for one media type, as a bit mask; `none` (empty) supports none.
public struct TSMediaFileOperation: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The mask's bits.
    public let rawValue: UInt

    /// Creates a mask from its bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// No operation is supported (the empty mask).
    public static let none: TSMediaFileOperation = []
    /// Bit 0: the device lists files of the type.
    public static let list = TSMediaFileOperation(rawValue: 1 << 0)
    /// A listed file can be downloaded.
    public static let download = TSMediaFileOperation(rawValue: 1 << 1)
    /// A listed file can be deleted.
    public static let delete = TSMediaFileOperation(rawValue: 1 << 2)
    /// Every file of the type can be deleted in one call.
    public static let deleteAll = TSMediaFileOperation(rawValue: 1 << 3)
    /// The device reports changes of the type's list.
    public static let observeChanges = TSMediaFileOperation(rawValue: 1 << 4)

    /// Every operation, with its name, in bit order.
    static let named: [(TSMediaFileOperation, String)] = [
        (.list, "list"), (.download, "download"), (.delete, "delete"), (.deleteAll, "deleteAll"),
        (.observeChanges, "observeChanges"),
    ]

    /// The mask for a list of operation names (`list`, `download`, `delete`, `deleteAll`,
    /// `observeChanges`); unknown names are ignored.
    init(names: some Sequence<String>) {
        self = []
        for name in names {
            if let (operation, _) = Self.named.first(where: { $0.1 == name }) { insert(operation) }
        }
    }

    /// The names of the operations in the mask, joined by `|`; `none` when empty.
    public var description: String {
        let names = Self.named.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }
}
