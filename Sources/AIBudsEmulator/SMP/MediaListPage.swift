import AIBudsCBOR
import AIBudsWire

/// A response payload already encoded as CBOR: the handler sends its bytes as they are.
struct EncodedPayload: Encodable, Sendable {
    /// One CBOR map, in deterministic encoding.
    let bytes: [UInt8]

    /// Encodes the item the bytes hold (for encoders other than the handler's).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try CBOR.decode(bytes))
    }
}

/// One Media `list` response (docs/protocol.md §3) written straight into bytes: as many of a
/// page's entries as fit a packet, at least one. The bytes are those of `MediaListResponse`'s
/// deterministic encoding; writing them directly costs a page of entries a few copies, not a tree
/// of CBOR items per entry.
enum MediaListPage {
    /// The response payload with as many of `records` as fit a packet of `packetSize` bytes (at
    /// least one, so that a single huge name still gets through).
    static func payload(generation: UInt64, total: UInt64, records: [MediaRecord], packetSize: Int) -> EncodedPayload {
        // Keys in deterministic order: "files", "total" (5 bytes each), then "generation".
        var tail: [UInt8] = []
        appendText("total", to: &tail)
        CBOR.appendHead(major: 0, argument: total, to: &tail)
        appendText("generation", to: &tail)
        CBOR.appendHead(major: 0, argument: generation, to: &tail)
        let fixed = 1 + 6 + tail.count  // map head, "files", the rest
        let budget = packetSize - SMPHeader.size
        var entries: [UInt8] = []
        entries.reserveCapacity(min(max(budget, 0), 1 << 16))
        var count = 0
        for record in records {
            let before = entries.count
            appendEntry(record, to: &entries)
            if count > 0, fixed + arrayHeadSize(count + 1) + entries.count > budget {
                entries.removeSubrange(before...)
                break
            }
            count += 1
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fixed + 3 + entries.count)
        CBOR.appendHead(major: 5, argument: 3, to: &bytes)
        appendText("files", to: &bytes)
        CBOR.appendHead(major: 4, argument: UInt64(count), to: &bytes)
        bytes.append(contentsOf: entries)
        bytes.append(contentsOf: tail)
        return EncodedPayload(bytes: bytes)
    }

    /// One `MediaFileEntry` map, keys in deterministic order (id, name, size, type, sha256, sixaxis).
    static func appendEntry(_ record: MediaRecord, to out: inout [UInt8]) {
        CBOR.appendHead(major: 5, argument: record.sha256 == nil ? 5 : 6, to: &out)
        appendText("id", to: &out)
        appendText(record.id, to: &out)
        appendText("name", to: &out)
        appendText(record.name.text, to: &out)
        appendText("size", to: &out)
        CBOR.appendHead(major: 0, argument: record.listedSize ?? record.size, to: &out)
        appendText("type", to: &out)
        let type = record.type.rawValue
        if type >= 0 {
            CBOR.appendHead(major: 0, argument: UInt64(type), to: &out)
        } else {
            CBOR.appendHead(major: 1, argument: UInt64(-1 - type), to: &out)
        }
        if let digest = record.sha256 {
            appendText("sha256", to: &out)
            CBOR.appendHead(major: 2, argument: UInt64(digest.count), to: &out)
            out.append(contentsOf: digest)
        }
        appendText("sixaxis", to: &out)
        out.append(record.sixaxis ? 0xF5 : 0xF4)
    }

    private static func appendText(_ text: String, to out: inout [UInt8]) {
        let utf8 = text.utf8
        CBOR.appendHead(major: 3, argument: UInt64(utf8.count), to: &out)
        out.append(contentsOf: utf8)
    }

    private static func arrayHeadSize(_ count: Int) -> Int {
        count < 24 ? 1 : count <= 0xFF ? 2 : count <= 0xFFFF ? 3 : 5
    }
}
